import {
  DayAggregateSchema,
  DIMENSIONS,
  NONE_LABEL,
  StoredContributionSchema,
  StoredGoalSchema,
  type Bucket,
  type DayAggregate,
  type DonationSummary,
  type GoalInputSchema,
  type PublicGoal,
  type StoredContribution,
  type StoredGoal,
  type SummaryRow,
  type WebhookKind,
  DonationRangeSchema,
} from '../../schemas/donations.ts';
import { campaignToday } from '../../campaign-time.ts';
import { zodToHttp } from '../errors.ts';
import { rowsFrom, type ExportSource } from '../export-source.ts';
import type { z } from 'zod';
import { submit, type Combiner } from '../storage/combiner.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { StoreUnavailableError, type KV } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';

/**
 * The donations ledger (store `donations`): one record per contribution line
 * item, and one aggregate document per campaign day that every notification
 * is folded into (storage/combiner.ts: one write per fold, whatever the rush). The dashboard reads day documents only (one
 * read per day in the range, never one per gift). Each day document remembers
 * the state every contribution was counted in (`applied`), so a redelivered
 * or retried notification is counted once, and a refund moves a gift from
 * "paid" to "refunded" exactly once. See docs/decisions/165-donations.md.
 */

const store = (): KV => kv('donations');
export const contributionKey = (id: string) => key('contribution', id);
export const DAY_PREFIX = 'agg/day/';
export const dayKey = (day: string) => key('agg', 'day', day);
const goalKey = () => key('settings', 'goal');

const emptyBucket = (): Bucket => ({ count: 0, grossCents: 0, refunds: 0, refundedCents: 0 });

export function emptyDay(day: string): DayAggregate {
  return {
    day,
    total: emptyBucket(),
    oneTime: emptyBucket(),
    recurring: emptyBucket(),
    cancelled: 0,
    refcode: [],
    utmSource: [],
    utmMedium: [],
    utmCampaign: [],
    applied: {},
  };
}

/** The state a contribution is counted in: p(aid) or r(efunded), plus c when its series was cancelled. */
export function stateOf(c: Pick<StoredContribution, 'status' | 'cancelledAt'>): string {
  return `${c.status === 'refunded' ? 'r' : 'p'}${c.cancelledAt ? 'c' : ''}`;
}

function addTo(b: Bucket, d: Bucket): void {
  b.count += d.count;
  b.grossCents += d.grossCents;
  b.refunds += d.refunds;
  b.refundedCents += d.refundedCents;
}

function addGroup(groups: DayAggregate['refcode'], value: string, d: Bucket): void {
  let g = groups.find((x) => x.value === value);
  if (!g) groups.push((g = { value, ...emptyBucket() }));
  addTo(g, d);
  if (g.count === 0 && g.refunds === 0) groups.splice(groups.indexOf(g), 1);
}

/** Adds (sign 1) or removes (sign -1) one contribution counted in `state`. Pure. */
export function applyEffect(doc: DayAggregate, c: StoredContribution, state: string, sign: 1 | -1): void {
  const refunded = state.startsWith('r');
  const d: Bucket = {
    count: sign,
    grossCents: sign * c.amountCents,
    refunds: refunded ? sign : 0,
    refundedCents: refunded ? sign * c.amountCents : 0,
  };
  addTo(doc.total, d);
  addTo(c.recurring ? doc.recurring : doc.oneTime, d);
  if (state.endsWith('c')) doc.cancelled += sign;
  for (const dim of DIMENSIONS) addGroup(doc[dim], c[dim] ?? NONE_LABEL, d);
}

/**
 * The later of two states a contribution was counted in: a refund and a cancellation are only ever
 * added, so two notifications folded in either order count it the same (a replay of the original
 * arriving after its refund changes nothing).
 */
export function laterState(a: string | undefined, b: string): string {
  if (!a) return b;
  return `${a.startsWith('r') || b.startsWith('r') ? 'r' : 'p'}${a.endsWith('c') || b.endsWith('c') ? 'c' : ''}`;
}

/** Folds contributions into a day's totals (pure; mutates `doc`): each counted once, in its latest state. */
export function foldIntoDay(doc: DayAggregate, contributions: readonly StoredContribution[]): boolean {
  let changed = false;
  for (const c of contributions) {
    const prev = Object.hasOwn(doc.applied, c.id) ? doc.applied[c.id] : undefined;
    const state = laterState(prev, stateOf(c));
    if (prev === state) continue;
    if (prev) applyEffect(doc, c, prev, -1);
    applyEffect(doc, c, state, 1);
    doc.applied[c.id] = state;
    changed = true;
  }
  return changed;
}

/**
 * A day's totals are changed by ops folded by whoever holds the day's lease (storage/combiner.ts): a rush of
 * deliveries for one day is one write per fold, not one compare-and-set each
 * (docs/decisions/153-storage.md).
 */
function dayCombiner(day: string): Combiner<unknown, StoredContribution, true> {
  return {
    store,
    docKey: dayKey(day),
    leaseKey: key('lease', 'day', day),
    opPrefix: `${key('op', 'day', day)}/`,
    fold: (raw, ops) => {
      const doc = raw ? DayAggregateSchema.parse(raw) : emptyDay(day);
      const changed = foldIntoDay(
        doc,
        ops.map((o) => o.value),
      );
      return { doc: changed ? doc : UNCHANGED, results: new Map(ops.map((o) => [o.key, true as const])) };
    },
  };
}

/** Counts a contribution in its day's aggregate in its current state (idempotent), once folded in. */
export async function applyToDay(c: StoredContribution): Promise<void> {
  await submit(dayCombiner(c.day), `${c.id}+${stateOf(c)}`, c);
}

/**
 * Stores one line item of a notification: a contribution is created once
 * (onlyIfNew; a replay changes nothing); a refund or cancellation marks the
 * record (creating it first if the original notification never arrived),
 * never deletes it. States only move forward: paid -> refunded, cancelled once.
 */
export async function upsertContribution(
  incoming: StoredContribution,
  kind: WebhookKind,
): Promise<{ record: StoredContribution; created: boolean; changed: boolean }> {
  let created = false;
  let changed = false;
  const record = await upsert<StoredContribution>(store(), contributionKey(incoming.id), (raw) => {
    created = false;
    changed = false;
    if (!raw) {
      created = true;
      return incoming;
    }
    const parsed = StoredContributionSchema.safeParse(raw);
    if (!parsed.success)
      throw new StoreUnavailableError(new Error(`Invalid stored contribution ${incoming.id}`));
    const cur = parsed.data;
    let next = cur;
    if (kind === 'refund' && cur.status !== 'refunded')
      next = { ...next, status: 'refunded', refundedAt: incoming.refundedAt, updatedAt: incoming.updatedAt };
    if (kind === 'cancellation' && !cur.cancelledAt)
      next = { ...next, cancelledAt: incoming.cancelledAt, updatedAt: incoming.updatedAt };
    if (next === cur) return UNCHANGED;
    changed = true;
    return next;
  });
  return { record, created, changed };
}

/**
 * Applies a whole notification. The aggregate is (re)applied even when the
 * record already existed: if an earlier delivery stopped between the two
 * writes, ActBlue's retry completes it, and a complete one changes nothing.
 */
export async function recordNotification(
  records: StoredContribution[],
  kind: WebhookKind,
): Promise<{ created: number; changed: number }> {
  let created = 0;
  let changed = 0;
  for (const incoming of records) {
    const r = await upsertContribution(incoming, kind);
    if (r.created) created += 1;
    if (r.changed) changed += 1;
    await applyToDay(r.record);
  }
  return { created, changed };
}

export async function getContribution(id: string): Promise<StoredContribution | null> {
  const r = await store().get<unknown>(contributionKey(id));
  const p = r ? StoredContributionSchema.safeParse(r.value) : null;
  return p?.success ? p.data : null;
}

// ---------------------------------------------------------------------------
// Reading the aggregates

/** The day aggregates between two campaign days (inclusive): one key listing, then one read per day. */
export async function dayAggregates(from: string, to: string): Promise<DayAggregate[]> {
  const days: string[] = [];
  // A range within a few years lists only its years' day keys (one call each, a year has at most 366),
  // so the listing does not grow with the campaign's history (docs/decisions/155-inbox-and-staff-lists.md).
  const [y0, y1] = [Number(from.slice(0, 4)), Number(to.slice(0, 4))];
  const prefixes =
    y1 - y0 <= 3
      ? Array.from({ length: y1 - y0 + 1 }, (_, i) => `${DAY_PREFIX}${String(y0 + i).padStart(4, '0')}-`)
      : [DAY_PREFIX];
  for (const prefix of prefixes)
    for await (const page of store().keys(prefix)) {
      for (const k of page) {
        const day = k.slice(DAY_PREFIX.length);
        if (day >= from && day <= to) days.push(day);
      }
    }
  const docs = await mapLimit(days.sort(), 16, async (day) => {
    const r = await store().get<unknown>(dayKey(day));
    const p = r ? DayAggregateSchema.safeParse(r.value) : null;
    if (r && !p?.success) console.error(`[donations] skipped an invalid day aggregate ${day}`);
    return p?.success ? p.data : null;
  });
  return docs.filter((d): d is DayAggregate => d !== null);
}

const row = (value: string, b: Bucket): SummaryRow => ({
  value,
  ...b,
  netCents: b.grossCents - b.refundedCents,
});

function mergeGroups(docs: DayAggregate[], pick: (d: DayAggregate) => DayAggregate['refcode']): SummaryRow[] {
  const m = new Map<string, Bucket>();
  for (const d of docs)
    for (const g of pick(d)) {
      const b = m.get(g.value) ?? emptyBucket();
      addTo(b, g);
      m.set(g.value, b);
    }
  return [...m.entries()]
    .map(([v, b]) => row(v, b))
    .sort((a, b) => b.netCents - a.netCents || b.count - a.count || a.value.localeCompare(b.value));
}

/** Totals and groups for a range of campaign days, from the day aggregates. */
export async function donationSummary(from: string, to: string): Promise<DonationSummary> {
  const docs = await dayAggregates(from, to);
  const total = emptyBucket();
  const oneTime = emptyBucket();
  const recurring = emptyBucket();
  let cancelled = 0;
  for (const d of docs) {
    addTo(total, d.total);
    addTo(oneTime, d.oneTime);
    addTo(recurring, d.recurring);
    cancelled += d.cancelled;
  }
  return {
    from,
    to,
    totals: row('All gifts', total),
    oneTime: row('One-time', oneTime),
    recurring: row('Recurring', recurring),
    cancelledRecurring: cancelled,
    byDay: docs.map((d) => row(d.day, d.total)),
    byRefcode: mergeGroups(docs, (d) => d.refcode),
    byUtmSource: mergeGroups(docs, (d) => d.utmSource),
    byUtmMedium: mergeGroups(docs, (d) => d.utmMedium),
    byUtmCampaign: mergeGroups(docs, (d) => d.utmCampaign),
    daysRead: docs.length,
  };
}

// ---------------------------------------------------------------------------
// The public goal

export async function getGoal(): Promise<StoredGoal | null> {
  const r = await store().get<unknown>(goalKey());
  const p = r ? StoredGoalSchema.safeParse(r.value) : null;
  return p?.success ? p.data : null;
}

export async function setGoal(
  input: z.output<typeof GoalInputSchema>,
  by: string,
  now = new Date(),
): Promise<StoredGoal> {
  const goal: StoredGoal = {
    enabled: input.enabled,
    targetCents: input.targetDollars * 100,
    label: input.label,
    since: input.since,
    updatedAt: now.toISOString(),
    updatedBy: by,
  };
  return upsert<StoredGoal>(store(), goalKey(), () => goal);
}

/** The goal as /donate shows it: net of refunds since its start day; null while off. */
export async function publicGoal(): Promise<PublicGoal> {
  const goal = await getGoal();
  if (!goal?.enabled) return { goal: null };
  const docs = await dayAggregates(goal.since || '0000-01-01', '9999-12-31');
  const raisedCents = docs.reduce((n, d) => n + d.total.grossCents - d.total.refundedCents, 0);
  return { goal: { label: goal.label, targetCents: goal.targetCents, raisedCents } };
}

// ---------------------------------------------------------------------------
// CSV

const dollars = (cents: number) => (cents / 100).toFixed(2);

const DEFAULT_DAYS = 30;

/** The dashboard's range: `to` defaults to today, `from` to DEFAULT_DAYS days before it; 400 when invalid. */
export function donationRange(
  raw: { from?: string; to?: string },
  now = new Date(),
): { from: string; to: string } {
  const to = raw.to || campaignToday(now);
  const toDate = Date.parse(`${to}T12:00:00Z`);
  const from =
    raw.from ||
    (Number.isNaN(toDate) ? to : campaignToday(new Date(toDate - (DEFAULT_DAYS - 1) * 86_400_000)));
  const r = DonationRangeSchema.safeParse({ from, to });
  if (!r.success) throw zodToHttp(r.error);
  return r.data;
}

const DONATION_CSV_COLUMNS = ['section', 'value', 'contributions', 'gross', 'refunds', 'refunded', 'net'];

/** Every group of the summary as one table: section, value, gifts, gross, refunds, refunded, net. */
function summaryCsvRows(s: DonationSummary): string[][] {
  const line = (section: string, r: SummaryRow) => [
    section,
    r.value,
    String(r.count),
    dollars(r.grossCents),
    String(r.refunds),
    dollars(r.refundedCents),
    dollars(r.netCents),
  ];
  return [
    line('total', s.totals),
    line('kind', s.oneTime),
    line('kind', s.recurring),
    ...s.byDay.map((r) => line('day', r)),
    ...s.byRefcode.map((r) => line('refcode', r)),
    ...s.byUtmSource.map((r) => line('utm_source', r)),
    ...s.byUtmMedium.map((r) => line('utm_medium', r)),
    ...s.byUtmCampaign.map((r) => line('utm_campaign', r)),
  ];
}

/**
 * A range's summary as an export (docs/decisions/156-exports.md): its rows are
 * the range's days and attribution groups, read from the day aggregates (one read per day of the range, at most
 * MAX_RANGE_DAYS, 16 at a time), never one per gift, so its reads do not grow with the number of gifts.
 */
export async function donationExportSource(range: { from: string; to: string }): Promise<ExportSource> {
  const rows = summaryCsvRows(await donationSummary(range.from, range.to));
  return {
    filename: `donations-${range.from}-to-${range.to}.csv`,
    columns: DONATION_CSV_COLUMNS,
    total: rows.length,
    rows: rowsFrom(rows),
  };
}
