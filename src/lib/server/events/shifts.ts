import { z } from 'zod';
import { SHIFT_COPY } from '../../../content/shifts.ts';
import { IDENTITY } from '../../../content/identity.ts';
import { fill } from '../../fill.ts';
import { DEFAULT_LANG, LANGS, type Lang } from '../../lang.ts';
import { greeting } from '../../merge-fields.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import {
  RSVP_MESSAGES,
  RosterSchema,
  type Roster,
  type RosterEntry,
  type RsvpResult,
} from '../../schemas/rsvp.ts';
import {
  ShiftsDocSchema,
  shiftIcsPath,
  type PublicSlot,
  type ShiftSlot,
  type ShiftSlotResult,
  type ShiftsDoc,
  slotLine,
} from '../../schemas/shifts.ts';
export { slotLine };
import { sendEmail, type EmailMessage } from '../adapters/email.ts';
import { env } from '../env.ts';
import { HttpError } from '../errors.ts';
import type { RequestMeta } from '../texting/text-signups.ts';
import { submit, type Combiner, type Op } from '../storage/combiner.ts';
import { UNCHANGED, update, upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import { events } from '../content/events.ts';
import { rowsFrom, type ExportSource } from '../export-source.ts';
import { rsvpIdForToken } from './cancel-link.ts';
import { shiftRecordKey } from './rsvp-keys.ts';
import { cancelUrl } from './rsvp-email.ts';
import { answer, counts, foldOps, waitlistPosition, type RosterOp, type RosterOpResult } from './roster.ts';
import { indexShiftDays } from './shift-days.ts';
import { linkPerson } from '../people/link.ts';
import { logShiftTextConsent } from './shift-consent-log.ts';
import { indexShiftSlots, recordSlotFill } from '../activity/shift-gaps.ts';

/**
 * Volunteer shifts (docs/decisions/181-shifts.md). An event's slots are one document (`shifts/<event>`); each
 * slot has its own roster (`shift-roster/<event>/<slot>`), folded from ops by the combiner exactly like an
 * event's (storage/combiner.ts, docs/decisions/150-rsvp.md): a rush refuses no one and overbooks no slot. A
 * sign-up names one or several slots: the person is stored once (`shift/<event>/<sha256 of email>`), then one
 * op per slot, folded in parallel. A cancellation link is the RSVP link (cancel-link.ts) over
 * `<slot>:<person>`, so one person's links differ per slot and carry no trace of the email. Whoever folds a
 * cancellation emails the people it moved up, each promotion claimed first on the person's record, so a
 * re-fold never tells anyone twice. Check-ins are one document per slot (`shift-checkin/<event>/<slot>`).
 */

const store = (): KV => kv('rsvps');
export const shiftsKey = (eventId: number) => key('shifts', eventId);
export const slotRosterKey = (eventId: number, slot: string) => key('shift-roster', eventId, slot);
export { shiftRecordKey };
export const slotCheckInKey = (eventId: number, slot: string) => key('shift-checkin', eventId, slot);

/** The same settle time as an event's roster (docs/decisions/153-storage.md). */
const SETTLE_MS = 150;
const opName = (at: string, id: string, kind: RosterOp['kind']) =>
  `${String(Date.parse(at)).padStart(13, '0')}+${id}+${kind}`;

/** One volunteer's sign-up to an event's shifts. */
export const ShiftRecordSchema = z.object({
  id: z.string(),
  eventId: z.number().int().positive(),
  name: z.string().max(120),
  email: z.string().max(254),
  phone: z.string().nullable(),
  lang: z.enum(LANGS).default('en'),
  /** Asked for texts about their shifts to `phone` (the form's reminder box): the text guard's consent. */
  smsReminder: z.boolean().default(false),
  /** The slots this person asked for, in the order asked. */
  slots: z.array(z.string()),
  /** Slot id -> when the "a place opened up" email was claimed: at most one per slot and place. */
  promoted: z.record(z.string(), z.string()).default({}),
  createdAt: z.string(),
  updatedAt: z.string(),
  ip: z.string().nullable(),
});
export type ShiftRecord = z.infer<typeof ShiftRecordSchema>;

export const SlotCheckInsSchema = z.object({
  people: z.record(z.string(), z.object({ at: z.string(), by: z.string() })),
});
export type SlotCheckIns = z.infer<typeof SlotCheckInsSchema>;

/** The event's slots (none: the event is its own one slot). */
export async function getShifts(eventId: number): Promise<ShiftsDoc> {
  const r = await store().get<unknown>(shiftsKey(eventId));
  const p = r ? ShiftsDocSchema.safeParse(r.value) : null;
  return p?.success ? p.data : emptyDoc(eventId);
}

const emptyDoc = (eventId: number): ShiftsDoc => ({
  eventId,
  slots: [],
  updatedAt: null,
  updatedBy: null,
  versions: {},
  cancelled: [],
});

export async function getSlotRoster(eventId: number, slot: string): Promise<Roster> {
  const r = await store().get<unknown>(slotRosterKey(eventId, slot));
  return r ? RosterSchema.parse(r.value) : { eventId, entries: [] };
}

export async function getShiftRecord(eventId: number, id: string): Promise<ShiftRecord | null> {
  const r = await store().get<unknown>(shiftRecordKey(eventId, id));
  const p = r ? ShiftRecordSchema.safeParse(r.value) : null;
  return p?.success ? p.data : null;
}

const sortSlots = (slots: ShiftSlot[]) =>
  [...slots].sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      a.start.localeCompare(b.start) ||
      a.label.localeCompare(b.label) ||
      a.id.localeCompare(b.id),
  );

/** A change staff's people must hear of: the day, the hours or the place (not the number of places). */
export const placeChanged = (a: ShiftSlot, b: ShiftSlot) =>
  a.date !== b.date || a.start !== b.start || a.end !== b.end || a.siteId !== b.siteId || a.label !== b.label;

/**
 * Replaces the event's slots (staff). A slot somebody holds a place in may change its time, place or
 * capacity but not silently disappear (400 naming it): staff cancel it with `cancelled: true`, and it moves to
 * the document's `cancelled` list until its people are told (shift-notices.ts). A change of time or place moves
 * the slot's version on (`versions`), whose notices the handler then sends. Decided inside the compare-and-set,
 * so a retried or concurrent identical request moves nothing on twice. Answers the ids cancelled now.
 */
export async function setShifts(
  eventId: number,
  slots: (ShiftSlot & { cancelled?: boolean | undefined })[],
  by: string,
  now = new Date(),
): Promise<ShiftsDoc & { cancelledNow: string[] }> {
  let cancelledNow: string[] = [];
  let beforeSlots: ShiftSlot[] = [];
  const doc = await upsert<unknown>(store(), shiftsKey(eventId), async (raw) => {
    const p = raw ? ShiftsDocSchema.safeParse(raw) : null;
    const before = p?.success ? p.data : emptyDoc(eventId);
    beforeSlots = before.slots;
    const cancel = new Set(slots.filter((s) => s.cancelled).map((s) => s.id));
    const kept: ShiftSlot[] = slots.filter((s) => !s.cancelled).map(({ cancelled: _, ...s }) => s);
    const keptIds = new Set(kept.map((s) => s.id));
    cancelledNow = [];
    const cancelled = [...before.cancelled];
    for (const gone of before.slots.filter((s) => !keptIds.has(s.id))) {
      const { goingPeople, waitlistedPeople } = counts((await getSlotRoster(eventId, gone.id)).entries);
      if (goingPeople + waitlistedPeople === 0) continue;
      if (!cancel.has(gone.id))
        throw new HttpError(
          400,
          `The shift ${gone.id} has people signed up: cancel it ("cancelled": true) and they are told`,
        );
      cancelled.push({ slot: gone, at: now.toISOString(), by, noticed: false });
      cancelledNow.push(gone.id);
    }
    const versions: ShiftsDoc['versions'] = {};
    for (const s of kept) {
      const prev = before.slots.find((b) => b.id === s.id);
      const ver = before.versions[s.id] ?? { v: 0, noticed: 0 };
      versions[s.id] = prev && placeChanged(prev, s) ? { ...ver, v: ver.v + 1 } : ver;
    }
    return {
      eventId,
      slots: sortSlots(kept),
      updatedAt: now.toISOString(),
      updatedBy: by,
      versions,
      cancelled,
    } satisfies ShiftsDoc;
  });
  const parsed = ShiftsDocSchema.parse(doc);
  await indexShiftDays(eventId, parsed.slots);
  await indexShiftSlots(eventId, beforeSlots, parsed.slots); // the Overview's shift gaps (180-overview.md)
  return { ...parsed, cancelledNow };
}

/**
 * Adds slots that are not there yet (by id) and leaves the others as they are: the staffing plan's write, so a
 * second run adds nothing. Answers how many were added.
 */
export async function addShifts(eventId: number, slots: ShiftSlot[], by: string, now = new Date()) {
  let added = 0;
  const doc = await upsert<unknown>(store(), shiftsKey(eventId), (raw) => {
    const p = raw ? ShiftsDocSchema.safeParse(raw) : null;
    const cur = p?.success ? p.data.slots : [];
    const have = new Set(cur.map((s) => s.id));
    const fresh = slots.filter((s) => !have.has(s.id));
    added = fresh.length;
    if (!fresh.length && raw) return UNCHANGED;
    if (cur.length + fresh.length > 300) throw new HttpError(400, 'At most 300 shifts per event');
    const kept = p?.success ? p.data : emptyDoc(eventId);
    return { ...kept, slots: sortSlots([...cur, ...fresh]), updatedAt: now.toISOString(), updatedBy: by };
  });
  const parsed = ShiftsDocSchema.parse(doc);
  await indexShiftDays(eventId, parsed.slots);
  if (added) await indexShiftSlots(eventId, [], parsed.slots); // the Overview's shift gaps (180-overview.md)
  return { added, doc: parsed };
}

/** Every slot with its places and waitlist (no personal data): the public page and the plan read this. */
export async function publicSlots(eventId: number, doc?: ShiftsDoc): Promise<PublicSlot[]> {
  const { slots } = doc ?? (await getShifts(eventId));
  const rosters = await Promise.all(slots.map((s) => getSlotRoster(eventId, s.id)));
  return slots.map((s, i) => {
    const { goingSeats, waitlistedPeople } = counts(rosters[i]!.entries);
    return {
      id: s.id,
      date: s.date,
      start: s.start,
      end: s.end,
      label: s.label,
      capacity: s.capacity,
      seatsLeft: Math.max(0, s.capacity - goingSeats),
      waitlisted: waitlistedPeople,
    };
  });
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 200);
/** A slot's calendar file, as a full link (SITE_URL, never the Host header). */
export const shiftIcsUrl = (eventId: number, slot: string, lang: Lang) =>
  new URL(shiftIcsPath(eventId, slot, lang), env().SITE_URL).href;
const slotToken = (slot: string, id: string) => `${slot}:${id}`;

async function mail(message: EmailMessage): Promise<void> {
  try {
    await sendEmail(message);
  } catch (err) {
    // An email failure never undoes a sign-up.
    console.error('[shifts] email failed', err instanceof Error ? err.message : err);
  }
}

function signupEmail(
  event: CampaignEvent,
  rec: ShiftRecord,
  results: { slot: ShiftSlot; r: ShiftSlotResult }[],
) {
  const w = SHIFT_COPY[rec.lang];
  const lines = results.map(({ slot, r }) =>
    fill(
      w.emailLine,
      slotLine(slot, rec.lang),
      r.status === 'going' ? w.going : fill(w.waitlisted, r.position ?? ''),
    ),
  );
  const cancels = results.flatMap(({ slot }) => [
    fill(w.addToCalendar, shiftIcsUrl(event.id, slot.id, rec.lang)),
    fill(w.cancelShift, slotLine(slot, rec.lang), cancelUrl(event.id, slotToken(slot.id, rec.id), rec.lang)),
  ]);
  return {
    to: rec.email,
    replyTo: event.contactEmail,
    subject: oneLine(fill(w.subjectSignup, event.title)),
    text: [
      greeting(rec.name, rec.lang),
      '',
      w.signedUp,
      ...lines,
      '',
      ...cancels,
      '',
      IDENTITY.committeeName,
    ].join('\n'),
  } satisfies EmailMessage;
}

/**
 * Tells each person a fold moved up on this slot, once: the slot is claimed on their record (compare-and-set)
 * before the email is sent, so a fold that runs again, or a second folder, sends nothing more.
 */
export async function notifyPromoted(
  event: CampaignEvent,
  slot: ShiftSlot,
  entries: readonly RosterEntry[],
  ids: string[],
) {
  for (const id of ids) {
    const promotedAt = entries.find((e) => e.id === id)?.promotedAt ?? new Date().toISOString();
    let claimed = false;
    const rec = await update<unknown>(store(), shiftRecordKey(event.id, id), (raw) => {
      const cur = ShiftRecordSchema.parse(raw);
      claimed = cur.promoted[slot.id] !== promotedAt;
      return claimed ? { ...cur, promoted: { ...cur.promoted, [slot.id]: promotedAt } } : cur;
    }).catch((e: unknown) => {
      console.error('[shifts] could not claim a promotion email', e);
      return null;
    });
    if (!rec || !claimed) continue;
    const r = ShiftRecordSchema.parse(rec);
    const w = SHIFT_COPY[r.lang];
    await mail({
      to: r.email,
      replyTo: event.contactEmail,
      subject: oneLine(fill(w.subjectPromoted, event.title)),
      text: [
        greeting(r.name, r.lang),
        '',
        fill(w.promoted, slotLine(slot, r.lang)),
        '',
        fill(w.cancelShift, slotLine(slot, r.lang), cancelUrl(event.id, slotToken(slot.id, r.id), r.lang)),
        '',
        IDENTITY.committeeName,
      ].join('\n'),
    });
  }
}

function slotCombiner(event: CampaignEvent, slot: ShiftSlot): Combiner<unknown, RosterOp, RosterOpResult> {
  return {
    store,
    docKey: slotRosterKey(event.id, slot.id),
    leaseKey: key('lease', 'shift-roster', event.id, slot.id),
    opPrefix: `${key('op', 'shift-roster', event.id, slot.id)}/`,
    settleMs: SETTLE_MS,
    fold: (raw, ops: Op<RosterOp>[]) => {
      const roster: Roster = raw ? RosterSchema.parse(raw) : { eventId: event.id, entries: [] };
      const entries = roster.entries.map((e) => ({ ...e }));
      const { results, promoted, changed } = foldOps(
        entries,
        ops.map((o) => ({ key: o.key, op: o.value })),
        slot.capacity,
      );
      const after = promoted.length ? () => notifyPromoted(event, slot, entries, promoted) : undefined;
      // The Overview's shift gaps count this slot's places as of this fold (docs/decisions/180-overview.md).
      const [filled, v] = [counts(entries).goingSeats, new Date().toISOString()];
      const counted = changed ? () => recordSlotFill(event.id, slot, filled, v) : undefined;
      const then = after && counted ? () => after().then(counted) : (after ?? counted);
      return { doc: changed ? { ...roster, entries } : UNCHANGED, results, ...(then ? { after: then } : {}) };
    },
  };
}

export interface ShiftSignup {
  name: string;
  email: string;
  phone?: string | null;
  lang?: Lang;
  smsReminder?: boolean;
  slots: string[];
}

/**
 * One sign-up for one or several of an event's slots (the RSVP form of an event that has slots: rsvp.ts hands
 * it here). The person is stored first, then each slot's op is folded (in parallel: the slots are independent
 * rosters), then one email lists every slot with its own cancellation link. A slot already held is answered
 * as a newcomer would be (docs/decisions/150-rsvp.md's rule: the answer reveals no one).
 */
export async function signUpForShifts(
  event: CampaignEvent,
  doc: ShiftsDoc,
  input: ShiftSignup,
  meta: RequestMeta,
  now = new Date(),
): Promise<RsvpResult & { slots: ShiftSlotResult[] }> {
  const wanted = [...new Set(input.slots)];
  if (!wanted.length)
    throw new HttpError(400, SHIFT_COPY.en.pickOne, { fields: { slots: SHIFT_COPY.en.pickOne } });
  const byId = new Map(doc.slots.map((s) => [s.id, s]));
  const chosen = wanted.map((id) => byId.get(id));
  if (chosen.some((s) => !s))
    throw new HttpError(400, 'That shift is not offered', { fields: { slots: 'That shift is not offered' } });
  const slots = chosen as ShiftSlot[];
  const id = hashed(input.email);
  const at = now.toISOString();
  const lang = input.lang ?? DEFAULT_LANG;
  const details = {
    name: input.name,
    email: input.email,
    phone: input.phone || null,
    lang,
    smsReminder: Boolean(input.smsReminder && input.phone),
  };

  // 1. The person, stored first (the slots asked for are added to any earlier sign-up's).
  const saved = await upsert<unknown>(store(), shiftRecordKey(event.id, id), (raw) => {
    const p = raw ? ShiftRecordSchema.safeParse(raw) : null;
    const cur = p?.success ? p.data : null;
    return ShiftRecordSchema.parse({
      id,
      eventId: event.id,
      ...details,
      slots: [...new Set([...(cur?.slots ?? []), ...wanted])],
      promoted: cur?.promoted ?? {},
      createdAt: cur?.createdAt ?? at,
      updatedAt: at,
      ip: meta.ip,
    });
  });
  const rec = ShiftRecordSchema.parse(saved);
  await logShiftTextConsent(rec, meta, at, shiftRecordKey(event.id, id));
  // The person's timeline (docs/decisions/149-people.md): a sign-up for shifts links like an RSVP, source 'shift'.
  await linkPerson({
    source: 'shift',
    store: 'rsvps',
    key: shiftRecordKey(event.id, id),
    name: input.name,
    email: input.email,
    phone: details.phone,
    lang,
    detail: { eventId: event.id, slots: wanted.join(' ') },
    at: now,
  });

  // 2. One op per slot, folded by each slot's combiner.
  const queued = new Date().toISOString();
  const person = { name: input.name, email: input.email, phone: details.phone, smsReminder: false };
  const results = await Promise.all(
    slots.map(async (slot): Promise<{ slot: ShiftSlot; r: ShiftSlotResult; fresh: boolean }> => {
      const op: RosterOp = { kind: 'rsvp', id, seats: 1, at: queued, person };
      const { result } = await submit(slotCombiner(event, slot), opName(queued, id, 'rsvp'), op);
      if (result?.kind === 'placed')
        return { slot, r: { id: slot.id, status: result.status, position: result.position }, fresh: true };
      // Already on this slot: answered like a newcomer (the real status is in the email they had).
      const a = result?.kind === 'repeat' ? result.answer : answer('waitlisted', null);
      return { slot, r: { id: slot.id, status: a.status, position: a.position }, fresh: false };
    }),
  );

  // 3. One email for the slots this sign-up placed.
  const placed = results.filter((x) => x.fresh);
  if (placed.length) await mail(signupEmail(event, rec, placed));
  const going = results.some((x) => x.r.status === 'going');
  const firstWait = results.find((x) => x.r.status === 'waitlisted')?.r.position ?? null;
  return {
    ...answer(going ? 'going' : 'waitlisted', going ? null : firstWait),
    slots: results.map((x) => x.r),
  };
}

/** The slot and person a cancellation link is for, or null (every slot's places checked in constant time). */
export async function shiftForLink(
  eventId: number,
  token: string,
): Promise<{ slot: string; id: string; status: 'going' | 'waitlisted' | 'cancelled' } | null> {
  const { slots } = await getShifts(eventId);
  if (!slots.length) return null;
  const rosters = await Promise.all(slots.map((s) => getSlotRoster(eventId, s.id)));
  const candidates = slots.flatMap((s, i) => rosters[i]!.entries.map((e) => slotToken(s.id, e.id)));
  const found = rsvpIdForToken(eventId, token, candidates);
  if (!found) return null;
  const [slot, id] = found.split(':') as [string, string];
  const i = slots.findIndex((s) => s.id === slot);
  const status = rosters[i]!.entries.find((e) => e.id === id)!.status;
  return { slot, id, status };
}

/**
 * Cancels one slot from its link: frees the place and promotes the first on THAT slot's waitlist in the same
 * fold; whoever folded tells the promoted, once.
 */
export async function cancelShift(
  event: CampaignEvent,
  found: { slot: string; id: string },
): Promise<{ alreadyCancelled: boolean }> {
  const slot = (await getShifts(event.id)).slots.find((s) => s.id === found.slot);
  if (!slot) throw new HttpError(404, RSVP_MESSAGES.badLink);
  const queued = new Date().toISOString();
  const op: RosterOp = { kind: 'cancel', id: found.id, at: queued };
  const { result } = await submit(slotCombiner(event, slot), opName(queued, found.id, 'cancel'), op);
  return { alreadyCancelled: result?.kind !== 'cancelled' || result.already };
}

/** One slot's people for staff: going and waitlisted in order, with check-ins. */
export async function slotStaffView(eventId: number, slotId: string) {
  const slot = (await getShifts(eventId)).slots.find((s) => s.id === slotId);
  if (!slot) throw new HttpError(404, 'Shift not found');
  const [roster, checkIns] = await Promise.all([
    getSlotRoster(eventId, slotId),
    getSlotCheckIns(eventId, slotId),
  ]);
  const people = roster.entries
    .filter((e) => e.status !== 'cancelled')
    .map((e) => ({
      id: e.id,
      name: e.person?.name ?? '',
      email: e.person?.email ?? '',
      phone: e.person?.phone ?? null,
      status: e.status,
      position: waitlistPosition(roster.entries, e.id),
      checkedInAt: checkIns.people[e.id]?.at ?? null,
    }));
  return { slot, ...counts(roster.entries), people };
}

export async function getSlotCheckIns(eventId: number, slotId: string): Promise<SlotCheckIns> {
  const r = await store().get<unknown>(slotCheckInKey(eventId, slotId));
  const p = r ? SlotCheckInsSchema.safeParse(r.value) : null;
  return p?.success ? p.data : { people: {} };
}

/** Check-in at a slot (or its undo): only people holding a place there (404 otherwise). */
export async function setSlotCheckedIn(
  eventId: number,
  slotId: string,
  id: string,
  checkedIn: boolean,
  by: string,
  now = new Date(),
): Promise<{ checkedInAt: string | null }> {
  const roster = await getSlotRoster(eventId, slotId);
  if (!roster.entries.some((e) => e.id === id && e.status === 'going'))
    throw new HttpError(404, 'This person is not on this shift');
  let checkedInAt: string | null = null;
  await upsert<unknown>(store(), slotCheckInKey(eventId, slotId), (raw) => {
    const p = raw ? SlotCheckInsSchema.safeParse(raw) : null;
    const people = { ...(p?.success ? p.data.people : {}) };
    if (checkedIn) {
      people[id] ??= { at: now.toISOString(), by };
      checkedInAt = people[id].at;
    } else if (id in people) delete people[id];
    else if (raw) return UNCHANGED;
    return { people };
  });
  return { checkedInAt };
}

/** A slot's CSV columns (the export mechanism: docs/decisions/156-exports.md). */
export const SHIFT_CSV_COLUMNS = [
  'Name',
  'Email',
  'Phone',
  'Status',
  'Waitlist place',
  'Checked in',
] as const;

/** One slot's people as a registered export (`shift_attendees`): going then waitlisted, in roster order. */
export async function shiftExportSource(
  eventId: number,
  slotId: string,
): Promise<ExportSource & { event: { id: number; title: string } }> {
  const event = await events.get(eventId);
  if (!event) throw new HttpError(404, 'Event not found');
  const view = await slotStaffView(eventId, slotId);
  const rows = view.people.map((p) => [
    p.name,
    p.email,
    p.phone ?? '',
    p.status,
    p.position === null ? '' : String(p.position),
    p.checkedInAt ?? '',
  ]);
  return {
    event: { id: event.id, title: event.title },
    filename: `shift-${event.id}-${slotId}.csv`,
    columns: SHIFT_CSV_COLUMNS,
    total: rows.length,
    rows: rowsFrom(rows),
  };
}
