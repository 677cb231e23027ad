import { INVITE_SOURCE, refcodeSource, type ActivityDay, type ActivityKind } from '../../schemas/overview.ts';
import { z } from '../../schemas/zod.ts';
import type { KV, StoreName } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { INVERT_FROM } from '../vote-plans/record.ts';
import { ShiftsDocSchema } from '../../schemas/shifts.ts';
import { counts as rosterCounts } from '../events/roster.ts';
import { getSlotRoster } from '../events/shifts.ts';
import { entryKey, slotEntry, writeShiftDays, type ShiftDay } from '../activity/shift-gaps.ts';
import {
  addOps,
  dayKey,
  DAY_PREFIX,
  emptyDay,
  INVITED_PREFIX,
  invitedKey,
  MONTH_PREFIX,
  monthKey,
  type ActivityMonth,
  OP_PREFIX,
  opName,
  parseOp,
  REFCODED_PREFIX,
  refcodedKey,
  refcodeOfMarker,
  sourceFromPage,
  store,
} from '../activity/counts.ts';

/**
 * The Overview's rollups rebuilt from the records (`npm run reindex`; docs/decisions/180-overview.md): the same
 * rules `countActivity` is called by, read back from what the forms stored. Every record is read once (minutes
 * at 100,000: an offline job, never a request). Ops listed before the rebuild are folded into it and deleted;
 * one written while it runs for a record it also read is counted twice, so run it when the site is quiet.
 */

const at = z.string();
const nullableAt = z.string().nullable().optional();
const Person = z.object({ id: z.string(), createdAt: at, consentAt: nullableAt, sourcePage: nullableAt });
const Consent = z.object({ type: z.string(), personId: z.string(), at });
const Subscriber = z.object({
  id: z.string(),
  createdAt: at,
  confirmedAt: nullableAt,
  sourcePage: nullableAt,
});
const Suppressed = z.object({ reason: z.enum(['unsubscribed', 'bounced', 'spam_reported']), at });
const Volunteer = z.object({ id: z.string(), createdAt: at });
const Rsvp = z.object({ id: z.string(), eventId: z.number(), createdAt: at });

const CONSENT_KINDS: Record<string, ActivityKind> = {
  start: 'text.optin',
  stop: 'text.optout',
  carrier_opt_out: 'text.carrier_optout',
};
const SUPPRESSION_KINDS = {
  unsubscribed: 'email.unsubscribe',
  bounced: 'email.bounce',
  spam_reported: 'email.spam',
} as const;

/** Every record under a prefix that parses with `schema` (others are skipped and logged). */
async function each<S extends z.ZodType>(
  name: StoreName,
  prefix: string,
  schema: S,
  visit: (value: z.output<S>, key: string) => void,
): Promise<void> {
  const s: KV = kv(name);
  for await (const page of s.keys(prefix)) {
    const values = await mapLimit(page, 16, async (k) => [k, await s.get<unknown>(k)] as const);
    for (const [k, r] of values) {
      const p = r ? schema.safeParse(r.value) : null;
      if (p?.success) visit(p.data, k);
      else if (r) console.error(`[overview] rebuild skipped an unreadable ${name} record`);
    }
  }
}

/** The ops the records stand for, by name (the same names countActivity writes, so duplicates collapse). */
export async function opsFromRecords(): Promise<Set<string>> {
  const names = new Set<string>();
  // Sign-ups counted as an invite link's (their markers: countedWithInvite).
  const invited = new Set<string>();
  for await (const page of store().keys(INVITED_PREFIX)) for (const k of page) invited.add(k);
  // Sign-ups counted under a campaign link's refcode (their markers hold the code).
  const refcoded = new Map<string, string>();
  for await (const page of store().keys(REFCODED_PREFIX)) {
    const values = await mapLimit(page, 16, async (k) => [k, await store().get<unknown>(k)] as const);
    for (const [k, r] of values) {
      const code = refcodeOfMarker(r?.value);
      if (code) refcoded.set(k, code);
    }
  }
  const sourceOf = (kind: ActivityKind, id: string, source?: string) => {
    if (invited.has(invitedKey(kind, id))) return INVITE_SOURCE;
    const code = refcoded.get(refcodedKey(kind, id));
    return code ? refcodeSource(code) : source;
  };
  const add = (kind: ActivityKind, id: string, when: string, source?: string) =>
    names.add(opName({ kind, id, at: when, source: sourceOf(kind, id, source) }));
  await each('signups', 'person/', Person, (p) => {
    // A web sign-up gave consent when it created its person; a STOP from an unknown number leaves a stub without.
    if (!p.consentAt) return;
    add('signup.text', p.id, p.createdAt, sourceFromPage(p.sourcePage));
    add('text.optin', p.id, p.createdAt);
  });
  await each('signups', 'consent/', Consent, (e) => {
    const kind = CONSENT_KINDS[e.type];
    if (kind) add(kind, `${e.personId}-${e.at}`, e.at);
  });
  await each('subscribers', 'subscriber/', Subscriber, (s) => {
    add('signup.newsletter', s.id, s.createdAt, sourceFromPage(s.sourcePage));
    if (s.confirmedAt) add('email.optin', s.id, s.confirmedAt);
  });
  await each('subscribers', 'suppressed/', Suppressed, (s, k) =>
    add(SUPPRESSION_KINDS[s.reason], k.slice('suppressed/'.length), s.at),
  );
  await each('volunteers', 'volunteer/', Volunteer, (v) =>
    add('signup.volunteer', v.id, v.createdAt, 'page:volunteer'),
  );
  await each('rsvps', 'rsvp/', Rsvp, (r) =>
    add('signup.rsvp', `${r.eventId}-${r.id}`, r.createdAt, 'page:events'),
  );
  // A plan's staff-list marker is created once, at the first plan's time: `recent/<round>/<inverted ms>-<id>`.
  for await (const page of kv('vote-plans').keys('recent/'))
    for (const k of page) {
      const m = /^recent\/([^/]+)\/(\d{13})-(.+)$/.exec(k);
      if (!m) continue;
      const when = new Date(INVERT_FROM - Number(m[2])).toISOString();
      add('signup.plan', `${m[1]}-${m[3]}`, when, 'page:vote');
    }
  return names;
}

/** Rebuilds every day's rollup from the records; answers how many days it wrote. */
export async function rebuildActivity(): Promise<number> {
  const listed: string[] = [];
  for await (const page of store().keys(OP_PREFIX)) listed.push(...page);
  const days = new Map<string, ActivityDay>();
  for (const name of await opsFromRecords()) {
    const op = parseOp(name);
    if (!op) continue;
    const doc = days.get(op.day) ?? emptyDay(op.day);
    addOps(doc, [op]);
    days.set(op.day, doc);
  }
  // Days that had counts and now have none (records deleted) are emptied, not left stale.
  for await (const page of store().keys(DAY_PREFIX))
    for (const k of page) {
      const day = k.slice(DAY_PREFIX.length);
      if (!days.has(day)) days.set(day, emptyDay(day));
    }
  const applied = new Map<string, string[]>();
  for (const name of listed) {
    const op = parseOp(name);
    if (op) applied.set(op.day, [...(applied.get(op.day) ?? []), name]);
  }
  await mapLimit([...days.values()], 8, (doc) =>
    store().put(dayKey(doc.day), { ...doc, applied: applied.get(doc.day) ?? [] }),
  );
  // Their months ("since launch"), written whole; a month left with no counts is emptied.
  const months = new Map<string, ActivityMonth>();
  for (const doc of days.values()) {
    const m = months.get(doc.day.slice(0, 7)) ?? { month: doc.day.slice(0, 7), days: {} };
    m.days[doc.day] = { ...doc, applied: applied.get(doc.day) ?? [] };
    months.set(m.month, m);
  }
  for await (const page of store().keys(MONTH_PREFIX))
    for (const k of page) {
      const month = k.slice(MONTH_PREFIX.length);
      if (!months.has(month)) months.set(month, { month, days: {} });
    }
  await mapLimit([...months.values()], 8, (m) => store().put(monthKey(m.month), m));
  await mapLimit(listed, 8, (name) => store().delete(name));
  return days.size;
}

/**
 * Rebuilds the shift gaps' day documents from every event's slots and their rosters (`npm run reindex`): the
 * same entries `indexShiftSlots` and `recordSlotFill` keep on write. Answers how many days it wrote.
 */
export async function rebuildShiftDays(now = new Date()): Promise<number> {
  const days = new Map<string, ShiftDay>();
  const v = now.toISOString();
  const docs: z.output<typeof ShiftsDocSchema>[] = [];
  await each('rsvps', 'shifts/', ShiftsDocSchema, (doc) => docs.push(doc));
  for (const doc of docs) {
    const rosters = await mapLimit(doc.slots, 16, (s) => getSlotRoster(doc.eventId, s.id));
    for (const [i, s] of doc.slots.entries()) {
      const day = days.get(s.date) ?? { day: s.date, slots: {} };
      const filled = rosterCounts(rosters[i]!.entries).goingSeats;
      day.slots[entryKey(doc.eventId, s.id)] = slotEntry(doc.eventId, s, filled, v);
      days.set(s.date, day);
    }
  }
  return writeShiftDays(days);
}
