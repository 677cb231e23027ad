import { AuditEntrySchema, type AuditCheckStep, type AuditEntry } from '../../schemas/audit.ts';
import type { KV } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { listKeys } from '../storage/listing.ts';
import {
  anchorKey,
  anchorMac,
  auditStore,
  chainKey,
  dayOf,
  entryProblem,
  GENESIS,
  signedHead,
  validAnchor,
  type DayAnchor,
  type Head,
} from './trail.ts';
import {
  emptyList,
  listDocKey,
  listsOf,
  mergeItems,
  parseListDoc,
  segmentKey,
  type Item,
} from './postings.ts';

/**
 * The incremental integrity check (docs/decisions/154-audit-trail.md).
 *
 * A signed checkpoint (`checkpoint`: {seq, hash, at, mac}) says "entries 1 to
 * seq were verified: each one's HMAC, its link to the one before, its day's
 * anchor, and they are in their postings lists". A step reads the checkpoint,
 * the head and the entry at the checkpoint (still there, same hash), verifies
 * the next entries up to the head (at most `maxEntries`, touching at most
 * `maxLists` lists), adds them to their lists (postings.ts) and moves the
 * checkpoint forward under compare-and-set. A step costs at most
 * maxEntries + 2 x maxLists + 6 store calls (plus a create per segment that fills up,
 * one per SEGMENT_ITEMS items of a list), whatever the trail holds.
 *
 * What a step does not see: a change to an entry that was verified before (behind
 * the checkpoint). The full verification (verification.ts) reads everything
 * again; it runs in the background, and by schedule once a day.
 */

export interface Checkpoint {
  seq: number;
  hash: string;
  /** The time of entry `seq` (where a page's listing of newer index keys may stop). */
  at: string | null;
  mac: string;
}

export const CHECKPOINT_KEY = 'checkpoint';
const checkpointMac = (c: Omit<Checkpoint, 'mac'>) => anchorMac(['checkpoint', c.seq, c.hash, c.at]);
export const ZERO: Checkpoint = { seq: 0, hash: GENESIS, at: null, mac: '' };

/** The stored checkpoint; `valid: false` when present but not signed by this server (altered). */
export async function readCheckpoint(
  s: KV = auditStore(),
): Promise<{ cp: Checkpoint; etag: string | null; valid: boolean }> {
  const r = await s.get<Checkpoint>(CHECKPOINT_KEY);
  if (!r) return { cp: ZERO, etag: null, valid: true };
  const c = r.value;
  const valid =
    !!c &&
    Number.isSafeInteger(c.seq) &&
    c.seq >= 0 &&
    typeof c.hash === 'string' &&
    checkpointMac({ seq: c.seq, hash: c.hash, at: c.at ?? null }) === c.mac;
  return { cp: valid ? c : ZERO, etag: r.etag, valid };
}

export type StepReport = AuditCheckStep;

export interface StepLimits {
  maxEntries: number;
  maxLists: number;
}

/** What a request may spend (the Activity tab's "Check integrity"): at most 16 + 28 + 6 = 50 store calls. */
export const REQUEST_STEP: StepLimits = { maxEntries: 16, maxLists: 14 };
/** What a background run spends per step (the scheduled function, the full verification, the seed). */
export const BULK_STEP: StepLimits = { maxEntries: 500, maxLists: 400 };

const fail = (entries: number, pending: number, brokenAt: number, reason: string): StepReport => ({
  ok: false,
  entries,
  pending,
  brokenAt,
  reason,
});

/**
 * One step of the incremental check. `given` (the seed's bulk path) supplies
 * entries just written instead of reading them back; they are verified the same way.
 */
export async function checkStep(limits: StepLimits, given?: readonly AuditEntry[]): Promise<StepReport> {
  const s = auditStore();
  const { cp, valid } = await readCheckpoint(s);
  if (!valid) return fail(0, 0, 1, 'checkpoint altered');
  const headDoc = (await s.get<Head>('head'))?.value;
  if (!headDoc) {
    if (cp.seq > 0 || (await s.get(chainKey(1)))) return fail(cp.seq, 0, 1, 'head missing');
    return { ok: true, entries: 0, pending: 0 };
  }
  const head = headDoc;
  const from = head.anchoredFrom ?? 1;
  const anchored = from > 1 ? { anchoredFrom: from } : {};
  if (!signedHead(head)) return fail(cp.seq, 0, cp.seq + 1, 'head altered');
  if (head.seq < cp.seq) return fail(cp.seq, 0, head.seq + 1, 'entries missing at the end');
  const pendingAt = (seq: number) => head.seq - seq;

  // The entry at the checkpoint is still the one verified there.
  if (cp.seq > 0) {
    const at = given?.find((e) => e.seq === cp.seq) ?? (await readEntry(s, cp.seq));
    if (!at) return fail(cp.seq - 1, pendingAt(cp.seq - 1), cp.seq, 'missing entry');
    if (at.hash !== cp.hash) return fail(cp.seq - 1, pendingAt(cp.seq - 1), cp.seq, 'entry altered');
  }
  const target = Math.min(head.seq, cp.seq + limits.maxEntries);
  if (target === cp.seq) return { ok: true, entries: cp.seq, pending: 0, ...anchored };

  const seqs = Array.from({ length: target - cp.seq }, (_, i) => cp.seq + 1 + i);
  const byseq = new Map((given ?? []).map((e) => [e.seq, e]));
  const read = await mapLimit(seqs, 16, async (seq) => byseq.get(seq) ?? (await readEntry(s, seq)));

  // Verify in order, and take entries while the lists they touch stay within the limit.
  const taken: AuditEntry[] = [];
  const lists = new Map<string, Item[]>();
  let prevHash = cp.hash;
  for (const [i, e] of read.entries()) {
    const seq = seqs[i]!;
    if (e === null) return fail(cp.seq, pendingAt(cp.seq), seq, 'missing entry');
    if (e === undefined) return fail(cp.seq, pendingAt(cp.seq), seq, 'unreadable entry');
    if (e.seq !== seq) return fail(cp.seq, pendingAt(cp.seq), seq, 'missing entry');
    if (e.prevHash !== prevHash) return fail(cp.seq, pendingAt(cp.seq), seq, 'chain link broken');
    if (entryProblem(e, null)) return fail(cp.seq, pendingAt(cp.seq), seq, 'entry altered');
    const names = listsOf(e);
    const added = names.filter((n) => !lists.has(n)).length;
    if (taken.length > 0 && lists.size + added > limits.maxLists) break;
    for (const n of names) lists.set(n, [...(lists.get(n) ?? []), [e.seq, Date.parse(e.at)]]);
    taken.push(e);
    prevHash = e.hash;
  }
  const last = taken.at(-1)!;
  if (last.seq === head.seq && last.hash !== head.hash)
    return fail(cp.seq, pendingAt(cp.seq), head.seq, 'head altered');

  // Each day's anchor is at or past that day's last entry here (entries before `from` predate anchors).
  const lastOfDay = new Map<string, AuditEntry>();
  for (const e of taken) if (e.seq >= from) lastOfDay.set(dayOf(e.at), e);
  for (const [day, e] of lastOfDay) {
    const k = anchorKey(day);
    const a = (await s.get<DayAnchor>(k))?.value;
    if (!a) return fail(cp.seq, pendingAt(cp.seq), e.seq, 'day anchor missing');
    if (!validAnchor(k, a)) return fail(cp.seq, pendingAt(cp.seq), e.seq, 'day anchor altered');
    if (a.seq < e.seq) return fail(cp.seq, pendingAt(cp.seq), e.seq, 'day anchor behind');
    if (a.seq === e.seq && a.hash !== e.hash)
      return fail(cp.seq, pendingAt(cp.seq), e.seq, 'day anchor altered');
  }

  await foldIntoLists(s, lists);
  const next: Omit<Checkpoint, 'mac'> = { seq: last.seq, hash: last.hash, at: last.at };
  await moveCheckpoint(s, { ...next, mac: checkpointMac(next) });
  return { ok: true, entries: last.seq, pending: pendingAt(last.seq), ...anchored };
}

/** The entry at a position: null when missing, undefined when not an entry. */
async function readEntry(s: KV, seq: number): Promise<AuditEntry | null | undefined> {
  const r = await s.get<unknown>(chainKey(seq));
  if (!r) return null;
  const p = AuditEntrySchema.safeParse(r.value);
  return p.success ? p.data : undefined;
}

/** Adds verified items to their lists: read, merge, seal full segments, compare-and-set (merging is idempotent). */
async function foldIntoLists(s: KV, lists: Map<string, Item[]>): Promise<void> {
  await mapLimit([...lists], 16, async ([list, items]) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const cur = await s.get<unknown>(listDocKey(list));
      const doc = (cur ? parseListDoc(list, cur.value) : null) ?? emptyList(list);
      const merged = mergeItems(doc, items);
      if (!merged) return;
      // A segment is written before the list names it; its content is the same whoever writes it.
      for (const seg of merged.segments)
        if (!(await s.create(segmentKey(list, seg.n), seg))) await s.put(segmentKey(list, seg.n), seg);
      if (
        cur
          ? await s.replace(listDocKey(list), merged.doc, cur.etag)
          : await s.create(listDocKey(list), merged.doc)
      )
        return;
    }
    throw new Error(`postings list ${list}: too many concurrent checks`);
  });
}

/** Moves the checkpoint forward (never back) under compare-and-set. */
async function moveCheckpoint(s: KV, next: Checkpoint): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const cur = await s.get<Checkpoint>(CHECKPOINT_KEY);
    if (cur && cur.value.seq >= next.seq) return;
    if (cur ? await s.replace(CHECKPOINT_KEY, next, cur.etag) : await s.create(CHECKPOINT_KEY, next)) return;
  }
}

/** Runs steps until caught up, a failure, or the time budget is spent. */
export async function checkUntil(limits: StepLimits, budgetMs: number): Promise<StepReport> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const r = await checkStep(limits);
    if (!r.ok || r.pending === 0 || Date.now() > deadline) return r;
  }
}

/** Forgets the checkpoint and the lists (the full verification found them wrong); the next steps rebuild them. */
export async function resetIndex(): Promise<void> {
  const s = auditStore();
  const keys = [...(await listKeys(s, 'postings/')), ...(await listKeys(s, 'segments/'))];
  await mapLimit(keys, 16, (k) => s.delete(k));
  await s.delete(CHECKPOINT_KEY);
}
