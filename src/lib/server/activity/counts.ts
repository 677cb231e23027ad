import { campaignToday } from '../../campaign-time.ts';
import type { AsyncLocalStorage } from 'node:async_hooks';
import {
  ACTIVITY_KINDS,
  ActivityDaySchema,
  INVITE_SOURCE,
  OTHER_SOURCE,
  refcodeSource,
  refcodeToken,
  SOURCE_PATTERN,
  type ActivityDay,
  type ActivityKind,
} from '../../schemas/overview.ts';
import { z } from '../../schemas/zod.ts';
import { derivedKey } from '../derived-keys.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';

/**
 * Daily rollups of what supporters did (docs/decisions/180-overview.md).
 *
 * Counting costs a writer one store call and no wait: `countActivity` creates one small "op" key per record
 * (onlyIfNew, named by the record, so a retried write counts once), whose NAME carries everything counted:
 * `op/<campaign day>/<kind>+<source>+<record id>`. A scheduled fold (`foldActivity`) adds the ops into the
 * day's rollup with one compare-and-set and deletes them; a fold that stops between the two is completed by
 * the next one (the rollup lists the ops it already holds). The Overview reads one rollup per day and lists
 * the ops not yet folded (their names are the counts), so a figure is never short while the fold is behind,
 * and a fold that has not run for a while is reported, not hidden.
 */

export const store = (): KV => kv('overview');
export const OP_PREFIX = 'op/';
export const DAY_PREFIX = 'day/';
export const dayKey = (day: string) => key('day', day);
/** When the fold last finished a run (a heartbeat the Overview reads to say whether the rollups are behind). */
export const FOLD_MARK_KEY = 'mark/folded';

/** Ops older than this still waiting for the fold: the Overview says the rollups are behind. */
export const BEHIND_AFTER_MS = 10 * 60_000;

const SAFE = /[^A-Za-z0-9._:-]/g;

/** A source token as stored: `page:volunteer`, `ref:fall-mailer`, `invite:k3x9`, or `other`. */
export function sourceToken(source: string | null | undefined): string {
  if (!source) return OTHER_SOURCE;
  const t = source.trim();
  return SOURCE_PATTERN.test(t) ? t : OTHER_SOURCE;
}

/**
 * A record id as a key part: a keyed hash (HMAC under a key derived from SESSION_SECRET), so an op's name says which
 * record it counts to this server and to no one else. Record ids are often hashes of an email or phone, which anyone
 * can recompute; a deleted person ("forget me") must leave nothing that can be matched back to them.
 */
function idPart(id: string | number): string {
  const { createHmac } = process.getBuiltinModule('node:crypto');
  return createHmac('sha256', derivedKey('overview op v1')).update(String(id)).digest('hex').slice(0, 32);
}

/** A sign-up's source from the page its form was on: `/es/volunteer` -> `page:volunteer`, `/` -> `page:home`. */
export function sourceFromPage(page: string | null | undefined): string {
  if (!page) return OTHER_SOURCE;
  let path: string;
  try {
    path = new URL(page, 'http://site.invalid').pathname;
  } catch {
    return OTHER_SOURCE;
  }
  const first = path.split('/').find((s) => s && s !== 'es') ?? 'home';
  return sourceToken(`page:${first}`);
}

export interface Activity {
  kind: ActivityKind;
  /** The record this counts (its id or key): the same record is counted once however often it is written. */
  id: string | number;
  /** When it happened (ISO): counted on that instant's campaign day. */
  at: string | Date;
  source?: string | null;
}

export function opName(a: Activity): string {
  const at = a.at instanceof Date ? a.at : new Date(a.at);
  const day = campaignToday(at);
  const source = a.kind.startsWith('signup.') ? sourceToken(a.source) : OTHER_SOURCE;
  return key('op', day, `${a.kind}+${source.replace(SAFE, '_')}+${idPart(a.id)}`);
}

export interface ParsedOp {
  name: string;
  day: string;
  kind: ActivityKind;
  source: string;
}

const KINDS = new Set<string>(ACTIVITY_KINDS);

export function parseOp(name: string): ParsedOp | null {
  const m = /^op\/(\d{4}-\d{2}-\d{2})\/([a-z._]+)\+([A-Za-z0-9._:-]+)\+[A-Za-z0-9._-]+$/.exec(name);
  if (!m || !KINDS.has(m[2]!)) return null;
  return { name, day: m[1]!, kind: m[2] as ActivityKind, source: m[3]! };
}

/**
 * Counts one thing a supporter did. Called after the record is stored; never fails the request it is part of
 * (a count lost to a store outage is found by `npm run reindex`, which rebuilds the rollups from the records),
 * but says so in the log.
 */
export async function countActivity(a: Activity): Promise<void> {
  const held = holder?.getStore();
  if (held && !held.closed && a.kind.startsWith('signup.')) {
    held.activities.push(a);
    return;
  }
  try {
    await store().create(opName(a), { at: a.at instanceof Date ? a.at.toISOString() : a.at });
  } catch (err) {
    console.error(`[overview] a ${a.kind} was not counted: run npm run reindex`, err);
  }
}

/**
 * The marker of a sign-up counted as the invite link's (`invited/<kind>/<record id part>`): what the rebuild reads
 * back, so it gives the sign-up the same source (the post's cookie is gone by then).
 */
export const INVITED_PREFIX = 'invited/';
export const invitedKey = (kind: ActivityKind, id: string | number) => key('invited', kind, idPart(id));

interface Held {
  activities: Activity[];
  closed: boolean;
}
let holder: AsyncLocalStorage<Held> | undefined;
const holderOf = () =>
  (holder ??= new (process.getBuiltinModule('node:async_hooks').AsyncLocalStorage)<Held>());

/**
 * Stores a public form's sign-up and credits it to an invite link (docs/decisions/180-overview.md, "Invite link").
 * The sign-up counts `store` makes are held until `credit` has run: when this post created the invite credit, each
 * is counted with the source `invite` (after its `invited/` marker, which the rebuild reads); else, when the post
 * came from a campaign link, with `ref:<refcode>` (after its `refcoded/` marker); otherwise with its own source. A `store` that throws has its counts written as they were, and no credit.
 */
export async function countedWithInvite<R>(
  store: () => Promise<R>,
  credit: () => Promise<boolean>,
  refcode: string | null = null,
): Promise<R> {
  const held: Held = { activities: [], closed: false };
  const code = refcodeToken(refcode);
  const flush = async (invited: boolean) => {
    held.closed = true;
    for (const a of held.activities) {
      if (invited && (await markInvited(a))) await countActivity({ ...a, source: INVITE_SOURCE });
      else {
        const marked = code ? await markRefcode(a, code) : null;
        await countActivity(marked ? { ...a, source: refcodeSource(marked) } : a);
      }
    }
  };
  let result: R;
  try {
    result = await holderOf().run(held, store);
  } catch (err) {
    await flush(false);
    throw err;
  }
  await flush(await credit());
  return result;
}

/**
 * The marker of a sign-up counted under a campaign link's refcode (`refcoded/<kind>/<record id part>`, holding the
 * code): what the rebuild reads back. One per record: a record already marked keeps its first source.
 */
export const REFCODED_PREFIX = 'refcoded/';
export const refcodedKey = (kind: ActivityKind, id: string | number) => key('refcoded', kind, idPart(id));

async function markRefcode(a: Activity, code: string): Promise<string | null> {
  try {
    const k = refcodedKey(a.kind, a.id);
    if (await store().create(k, { refcode: code })) return code;
    return refcodeOfMarker((await store().get<unknown>(k))?.value);
  } catch (err) {
    console.error('[overview] a refcode sign-up was counted under its page', err);
    return null;
  }
}

/** The code a `refcoded/` marker holds (null when unreadable). */
export function refcodeOfMarker(value: unknown): string | null {
  return value && typeof value === 'object' ? refcodeToken((value as { refcode?: unknown }).refcode) : null;
}

async function markInvited(a: Activity): Promise<boolean> {
  try {
    await store().create(invitedKey(a.kind, a.id), { at: a.at instanceof Date ? a.at.toISOString() : a.at });
    return true;
  } catch (err) {
    console.error('[overview] an invite-link sign-up was counted under its page', err);
    return false;
  }
}

export function emptyDay(day: string): ActivityDay {
  return { day, counts: {}, sources: {}, applied: [] };
}

/** Adds ops to a day's rollup (pure; mutates `doc`). */
export function addOps(doc: ActivityDay, ops: readonly ParsedOp[]): void {
  for (const op of ops) {
    doc.counts[op.kind] = (doc.counts[op.kind] ?? 0) + 1;
    if (op.kind.startsWith('signup.')) {
      const bySource = (doc.sources[op.kind] ??= {});
      bySource[op.source] = (bySource[op.source] ?? 0) + 1;
    }
  }
}

/** Every op not yet folded away, by day (one listing; bounded by how far the fold is behind). */
export async function pendingOps(): Promise<Map<string, ParsedOp[]>> {
  const byDay = new Map<string, ParsedOp[]>();
  for await (const page of store().keys(OP_PREFIX))
    for (const name of page) {
      const op = parseOp(name);
      if (!op) continue;
      const list = byDay.get(op.day) ?? [];
      list.push(op);
      byDay.set(op.day, list);
    }
  return byDay;
}

export async function readDay(day: string): Promise<{ doc: ActivityDay; etag: string | null }> {
  const r = await store().get<unknown>(dayKey(day));
  if (!r) return { doc: emptyDay(day), etag: null };
  const p = ActivityDaySchema.safeParse(r.value);
  if (!p.success) {
    console.error(`[overview] the rollup of ${day} is unreadable: rebuilt by npm run reindex`);
    return { doc: emptyDay(day), etag: r.etag };
  }
  return { doc: p.data, etag: r.etag };
}

/**
 * Monthly rollups (`month/<YYYY-MM>`): each day's rollup copied whole into its month, so "since launch" reads about
 * thirteen documents instead of a year of days. The fold copies a day after writing it; a copy with fewer counts
 * than the stored one is dropped (two folds' copies landing out of order); the rebuild writes them from scratch.
 */
export const MONTH_PREFIX = 'month/';
export const monthKey = (month: string) => key('month', month);
const MonthSchema = z.object({ month: z.string(), days: z.record(z.string(), ActivityDaySchema) });
export type ActivityMonth = z.infer<typeof MonthSchema>;
const sum = (d: ActivityDay) => Object.values(d.counts).reduce((n, v) => n + v, 0);

export async function readMonth(month: string): Promise<ActivityMonth> {
  const r = await store().get<unknown>(monthKey(month));
  const p = r ? MonthSchema.safeParse(r.value) : null;
  if (r && !p?.success)
    console.error(`[overview] the rollup of ${month} is unreadable: rebuilt by npm run reindex`);
  return p?.success ? p.data : { month, days: {} };
}

/** Copies a day's rollup into its month (compare-and-set); false when the store refused (the fold retries). */
async function copyIntoMonth(doc: ActivityDay): Promise<boolean> {
  const month = doc.day.slice(0, 7);
  try {
    await upsert<unknown>(store(), monthKey(month), (raw) => {
      const p = raw ? MonthSchema.safeParse(raw) : null;
      const cur = p?.success ? p.data : { month, days: {} };
      const had = cur.days[doc.day];
      if (had && sum(had) > sum(doc)) return UNCHANGED;
      return { ...cur, days: { ...cur.days, [doc.day]: doc } };
    });
    return true;
  } catch (err) {
    console.error(`[overview] the month of ${doc.day} was not updated: the next fold copies it`, err);
    return false;
  }
}

export interface FoldRun {
  days: number;
  folded: number;
  deleted: number;
  conflicts: number;
}

/**
 * Folds the waiting ops into their days' rollups: per day one read, one compare-and-set, then the ops are
 * deleted. Safe to run twice at once (the compare-and-set lets one through) and to be killed anywhere: an op
 * already in a rollup (listed in its `applied`) is deleted, not counted again.
 */
export async function foldActivity(now = new Date()): Promise<FoldRun> {
  const run: FoldRun = { days: 0, folded: 0, deleted: 0, conflicts: 0 };
  const byDay = await pendingOps();
  await mapLimit([...byDay], 4, async ([day, ops]) => {
    run.days++;
    const { doc, etag } = await readDay(day);
    const listed = new Set(ops.map((o) => o.name));
    const already = new Set(doc.applied.filter((n) => listed.has(n)));
    const fresh = ops.filter((o) => !already.has(o.name));
    addOps(doc, fresh);
    doc.applied = [...listed];
    const written =
      etag === null ? await store().create(dayKey(day), doc) : await store().replace(dayKey(day), doc, etag);
    if (!written) {
      run.conflicts++;
      return;
    }
    run.folded += fresh.length;
    // The day's copy in its month (what "since launch" reads); the ops stay listed until it is there.
    if (!(await copyIntoMonth(doc))) return;
    await mapLimit(ops, 8, async (o) => {
      await store().delete(o.name);
      run.deleted++;
    });
  });
  await store().put(FOLD_MARK_KEY, { at: now.toISOString() });
  return run;
}
