import { z } from 'zod';
import { hashed, key } from '../storage/keys.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import type { ShiftAttendanceCounts } from '../../schemas/shifts.ts';
import { columnOf, type ExportSource } from '../export-source.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { EVENT_SLOT } from '../../schemas/shifts.ts';
import { events } from '../content/events.ts';
import { getShifts } from './shifts.ts';

/**
 * Attendance per volunteer (docs/decisions/181-shifts.md, "Attendance"). One document per volunteer,
 * `volunteer-attendance/<person>` in the store `rsvps`, where `<person>` is the shift sign-up's id (the sha256 of the
 * email, as on the slot rosters): the slots signed up for, those the volunteer confirmed, and each slot's outcome
 * (attended or absent, with what recorded it: a staff check-in, a staff no-show, the "how did it go" link). Every
 * write is one compare-and-set of that document, keyed by `<event>:<slot>`, so a replay records nothing twice.
 *
 * Two no-shows in a row (the last two outcomes, in the order of the shifts) flag the volunteer "call, don't text":
 * shown to staff on the person and the slot's roster, and `isNoShowFlagged` is what every shift text asks first.
 */

const store = (): KV => kv('rsvps');
export const attendanceKey = (personKey: string) => key('volunteer-attendance', personKey);

export type AttendanceOutcome = 'attended' | 'absent';

const When = z.object({ at: z.string(), date: z.string().default(''), start: z.string().default('') });
const OutcomeSchema = When.extend({ outcome: z.enum(['attended', 'absent']), source: z.string().max(40) });

export const AttendanceDocSchema = z.object({
  personKey: z.string(),
  /** `<event>:<slot>` -> when the volunteer signed up (and the shift's date and start, for the order). */
  signups: z.record(z.string(), When).default({}),
  /** `<event>:<slot>` -> when the volunteer confirmed they are coming (the sequence's confirm). */
  confirmed: z.record(z.string(), When).default({}),
  /** `<event>:<slot>` -> how it went. */
  outcomes: z.record(z.string(), OutcomeSchema).default({}),
});
export type AttendanceDoc = z.infer<typeof AttendanceDocSchema>;

export type AttendanceCounts = ShiftAttendanceCounts;

const slotKey = (eventId: number, slotId: string) => `${eventId}:${slotId}`;
const empty = (personKey: string): AttendanceDoc => ({ personKey, signups: {}, confirmed: {}, outcomes: {} });
const parse = (personKey: string, raw: unknown): AttendanceDoc => {
  const p = raw ? AttendanceDocSchema.safeParse(raw) : null;
  return p?.success ? p.data : empty(personKey);
};

export async function getAttendance(personKey: string): Promise<AttendanceDoc> {
  const r = await store().get<unknown>(attendanceKey(personKey));
  return parse(personKey, r?.value);
}

/**
 * The shift's date and start (the order of outcomes); a slot no longer offered keeps none. An event without slots
 * (its implicit slot) is the event's own date and start.
 */
async function whenOf(eventId: number, slotId: string) {
  if (slotId === EVENT_SLOT) {
    const event = await events.get(eventId);
    return { date: event?.eventDate ?? '', start: event?.startTime ?? '' };
  }
  const slot = (await getShifts(eventId)).slots.find((s) => s.id === slotId);
  return { date: slot?.date ?? '', start: slot?.start ?? '' };
}

type Field = 'signups' | 'confirmed' | 'outcomes';
async function write(
  personKey: string,
  change: (doc: AttendanceDoc) => AttendanceDoc | typeof UNCHANGED,
): Promise<void> {
  await upsert<unknown>(store(), attendanceKey(personKey), (raw) => change(parse(personKey, raw)));
}
const withEntry = <F extends Field>(
  doc: AttendanceDoc,
  field: F,
  k: string,
  v: AttendanceDoc[F][string],
) => ({
  ...doc,
  [field]: { ...doc[field], [k]: v },
});

/** Notes the slots one sign-up placed the volunteer on (the first sign-up to each slot counts). */
export async function recordSignups(
  eventId: number,
  slots: readonly { id: string; date: string; start: string }[],
  personKey: string,
  now = new Date(),
): Promise<void> {
  if (!slots.length) return;
  await write(personKey, (doc) => {
    const fresh = slots.filter((s) => !doc.signups[slotKey(eventId, s.id)]);
    if (!fresh.length) return UNCHANGED;
    const signups = { ...doc.signups };
    for (const s of fresh)
      signups[slotKey(eventId, s.id)] = { at: now.toISOString(), date: s.date, start: s.start };
    return { ...doc, signups };
  });
}

/** The volunteer confirmed they are coming to a slot (the sequence's day-before confirm). Once per slot. */
export async function recordConfirmed(eventId: number, slotId: string, personKey: string, now = new Date()) {
  const when = await whenOf(eventId, slotId);
  await write(personKey, (doc) =>
    doc.confirmed[slotKey(eventId, slotId)]
      ? UNCHANGED
      : withEntry(doc, 'confirmed', slotKey(eventId, slotId), { at: now.toISOString(), ...when }),
  );
}

/**
 * How a slot went for one volunteer: `attended` or `absent`, and what recorded it (`check-in`, `staff`, `volunteer`:
 * the "how did it go" link). The latest record wins, except that the volunteer's own answer never replaces staff's.
 */
export async function recordAttendance(
  eventId: number,
  slotId: string,
  personKey: string,
  outcome: AttendanceOutcome,
  source: string,
  now = new Date(),
): Promise<void> {
  const when = await whenOf(eventId, slotId);
  const k = slotKey(eventId, slotId);
  await write(personKey, (doc) => {
    const cur = doc.outcomes[k];
    if (cur?.outcome === outcome) return UNCHANGED;
    if (cur && cur.source !== 'volunteer' && source === 'volunteer') return UNCHANGED;
    return withEntry(doc, 'outcomes', k, {
      at: now.toISOString(),
      date: when.date || cur?.date || '',
      start: when.start || cur?.start || '',
      outcome,
      source: source.slice(0, 40),
    });
  });
}

/** Withdraws an outcome that `source` recorded (a check-in undone); another source's outcome stays. */
export async function clearAttendance(eventId: number, slotId: string, personKey: string, source: string) {
  const k = slotKey(eventId, slotId);
  await write(personKey, (doc) => {
    if (doc.outcomes[k]?.source !== source) return UNCHANGED;
    const outcomes = { ...doc.outcomes };
    delete outcomes[k];
    return { ...doc, outcomes };
  });
}

/** The outcomes in the order of the shifts (date, start, then the slot's key). */
function ordered(doc: AttendanceDoc) {
  return Object.entries(doc.outcomes)
    .map(([k, o]) => ({ k, ...o }))
    .sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start) || a.k.localeCompare(b.k));
}

/** Two no-shows in a row: the last two outcomes, in the order of the shifts, are both absent. */
export function flaggedIn(doc: AttendanceDoc): boolean {
  const last = ordered(doc).slice(-2);
  return last.length === 2 && last.every((o) => o.outcome === 'absent');
}

export function countsOf(doc: AttendanceDoc): AttendanceCounts {
  const outcomes = Object.values(doc.outcomes);
  return {
    signedUp: Object.keys(doc.signups).length,
    confirmed: Object.keys(doc.confirmed).length,
    attended: outcomes.filter((o) => o.outcome === 'attended').length,
    noShow: outcomes.filter((o) => o.outcome === 'absent').length,
    callDontText: flaggedIn(doc),
  };
}

/** THE question every shift text asks first: has this volunteer (a sign-up's id) missed two shifts in a row? */
export async function isNoShowFlagged(personKey: string): Promise<boolean> {
  return flaggedIn(await getAttendance(personKey));
}

/** A person's counts over every email they have (a person of the People list may have several). */
export async function attendanceForEmails(emails: readonly string[]): Promise<AttendanceCounts> {
  const docs = await Promise.all([...new Set(emails.map(hashed))].map(getAttendance));
  return docs.map(countsOf).reduce(
    (a, c) => ({
      signedUp: a.signedUp + c.signedUp,
      confirmed: a.confirmed + c.confirmed,
      attended: a.attended + c.attended,
      noShow: a.noShow + c.noShow,
      callDontText: a.callDontText || c.callDontText,
    }),
    { signedUp: 0, confirmed: 0, attended: 0, noShow: 0, callDontText: false },
  );
}

/** A slot's roster for staff, each person with how the slot went and the "call, don't text" flag. */
export async function withAttendance<P extends { id: string }, V extends { people: P[] }>(
  eventId: number,
  view: V & { slot: { id: string } },
) {
  const docs = await Promise.all(view.people.map((p) => getAttendance(p.id)));
  return {
    ...view,
    people: view.people.map((p, i) => ({
      ...p,
      attendance: docs[i]!.outcomes[slotKey(eventId, view.slot.id)]?.outcome ?? null,
      callDontText: flaggedIn(docs[i]!),
    })),
  };
}

/** The People CSV's attendance columns, after its own (docs/decisions/156-exports.md). */
export const ATTENDANCE_COLUMNS = [
  'shifts_signed_up',
  'shifts_confirmed',
  'shifts_attended',
  'shifts_no_show',
  'call_dont_text',
] as const;

/**
 * A people export with each person's attendance appended, read as the rows are written (a page of rows at a time,
 * one read per email): `emails` is the column holding a person's emails, space-separated.
 */
export function withAttendanceColumns(source: ExportSource, emails = 'emails'): ExportSource {
  const at = source.columns.findIndex((c) => columnOf(c).name === emails);
  if (at < 0) return source;
  const rows = () => source.rows();
  return {
    ...source,
    columns: [...source.columns, ...ATTENDANCE_COLUMNS],
    rows: () => ({
      async *[Symbol.asyncIterator]() {
        let page: string[][] = [];
        const flush = async () => {
          const counts = await mapLimit(page, 8, (r) =>
            attendanceForEmails((r[at] ?? '').split(' ').filter(Boolean)),
          );
          const out = page.map((r, i) => {
            const c = counts[i]!;
            return [
              ...r,
              ...[c.signedUp, c.confirmed, c.attended, c.noShow].map(String),
              c.callDontText ? 'yes' : '',
            ];
          });
          page = [];
          return out;
        };
        for await (const r of rows()) {
          page.push(r);
          if (page.length >= 100) yield* await flush();
        }
        if (page.length) yield* await flush();
      },
    }),
  };
}
