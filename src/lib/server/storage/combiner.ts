import { randomUUID } from 'node:crypto';
import { UNCHANGED } from './compare-and-set.ts';
import { StoreUnavailableError, type KV } from './kv.ts';
import { mapLimit } from './map-limit.ts';

/**
 * Many writers, one document, nobody refused (docs/decisions/153-storage.md).
 *
 * A compare-and-set loop on one hot document (an event's roster, a day's donation totals) lets one writer
 * through per round trip, so a rush of 200 outlasts any retry budget and most of it is answered 409. Here
 * each writer records its change as its own small key (an "op", created onlyIfNew: no one contends for
 * it) and waits. Whoever holds the document's lease (a key created onlyIfNew, taken over when it expires)
 * folds every op waiting, in key order, into the document with one write, and writes each op's result
 * back into the op's key; a waiting writer reads its own key until the result is there, takes the lease
 * itself when it is free, and deletes its key once answered. A rush of N costs a handful of document
 * writes instead of N, and the fold order (the key order: arrival time, then id) is the order people
 * are served in.
 *
 * A fold is idempotent per op (the document says whether an op is already in it), so a fold that stopped
 * between writing the document and the results is completed by the next one. Ops answered but never
 * deleted (their writer stopped) are removed by a later fold.
 */

export interface Op<V> {
  key: string;
  value: V;
}

export interface Folded<D, R> {
  /** The new document, or UNCHANGED when the ops change nothing. */
  doc: D | typeof UNCHANGED;
  /** Each op's result, by key. */
  results: Map<string, R>;
  /** Work for after the lease is released (emails to people a fold moved), run by the folder. */
  after?: () => Promise<void>;
}

export interface Combiner<D, V, R> {
  store: () => KV;
  docKey: string;
  leaseKey: string;
  /** Ends with '/'; op names sort in the order ops are served. */
  opPrefix: string;
  /**
   * Serve in time order: op names start with the time (ms, 13 digits) taken just before the op is
   * written. A fold notes the time, waits this long, lists the ops and takes only those named up to the
   * noted time, so an op written a moment earlier (still on its way to the store) is never overtaken by
   * a later one. Holds while a store write takes less than this.
   */
  settleMs?: number;
  fold(doc: D | null, ops: Op<V>[]): Folded<D, R> | Promise<Folded<D, R>>;
}

interface Stored<V, R> {
  v: V;
  result?: R;
  answeredAt?: number;
}

interface Lease {
  owner: string;
  until: number;
}

/** A fold holds the lease at most this long; a folder that stopped is replaced after it. */
const LEASE_MS = 10_000;
/** Ops folded at once (a fold reads each, then writes each result). */
const BATCH = 400;
/** Answered ops older than this are removed by a fold (their writer stopped before deleting them). */
const ANSWERED_TTL_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function acquire(s: KV, leaseKey: string, owner: string): Promise<Lease | null> {
  const cur = await s.get<Lease>(leaseKey);
  if (cur && cur.value.until > Date.now()) return null;
  const mine: Lease = { owner, until: Date.now() + LEASE_MS };
  const ok = cur ? await s.replace(leaseKey, mine, cur.etag) : await s.create(leaseKey, mine);
  return ok ? mine : null;
}

async function release(s: KV, leaseKey: string, lease: Lease): Promise<void> {
  // Nobody else can have taken it before it expires: delete only while that is certain.
  if (Date.now() < lease.until - 1000) await s.delete(leaseKey);
}

/** Folds every waiting op into the document (the caller holds the lease); returns work for after the release. */
async function foldWaiting<D, V, R>(c: Combiner<D, V, R>): Promise<(() => Promise<void>) | undefined> {
  const s = c.store();
  const cutoff = Date.now();
  if (c.settleMs) await sleep(c.settleMs);
  const names: string[] = [];
  for await (const page of s.keys(c.opPrefix)) {
    names.push(...page);
    if (names.length >= BATCH * 2) break;
  }
  names.sort();
  const read = await mapLimit(names, 16, async (k) => ({
    key: k,
    stored: (await s.get<Stored<V, R>>(k))?.value,
  }));
  const now = Date.now();
  const stale = read.filter(
    (o) => o.stored?.result !== undefined && now - (o.stored.answeredAt ?? 0) > ANSWERED_TTL_MS,
  );
  await mapLimit(stale, 16, (o) => s.delete(o.key));
  const waiting = read
    .filter(
      (o): o is { key: string; stored: Stored<V, R> } =>
        o.stored !== undefined &&
        o.stored.result === undefined &&
        (c.settleMs === undefined ||
          Number(o.key.slice(c.opPrefix.length, c.opPrefix.length + 13)) <= cutoff),
    )
    .slice(0, BATCH)
    .map((o) => ({ key: o.key, value: o.stored.v }));
  if (!waiting.length) return undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const cur = await s.get<D>(c.docKey);
    const folded = await c.fold(cur?.value ?? null, waiting);
    if (folded.doc !== UNCHANGED) {
      // Only the lease holder writes the document, so this succeeds unless the lease ran out meanwhile.
      const ok = cur ? await s.replace(c.docKey, folded.doc, cur.etag) : await s.create(c.docKey, folded.doc);
      if (!ok) continue;
    }
    const answeredAt = Date.now();
    await mapLimit(waiting, 16, (op) =>
      s.put(op.key, { v: op.value, result: folded.results.get(op.key), answeredAt } satisfies Stored<V, R>),
    );
    return folded.after;
  }
  return undefined;
}

/**
 * Records one change and waits until it is folded (by this writer or another), then returns its
 * result. `twin` is true when an op of the same name was already there (the same change in the same
 * millisecond): the one result answers both, and is null for a twin that came back after the other
 * writer had read and removed it. Throws StoreUnavailableError (503) only when nothing was folded within
 * `budgetMs`; the op stays and a later fold applies it.
 */
export async function submit<D, V, R>(
  c: Combiner<D, V, R>,
  name: string,
  value: V,
  budgetMs = 40_000,
): Promise<{ result: R | null; twin: boolean }> {
  const s = c.store();
  const k = `${c.opPrefix}${name}`;
  const twin = !(await s.create(k, { v: value } satisfies Stored<V, R>));
  const owner = randomUUID();
  // The budget on the monotonic clock: tests that fake the date must not wait forever.
  const deadline = performance.now() + budgetMs;
  let wait = 10;
  for (let round = 0; ; round++) {
    const mine = (await s.get<Stored<V, R>>(k))?.value;
    if (!mine) {
      if (twin) return { result: null, twin };
      throw new StoreUnavailableError(new Error(`${k} disappeared before it was answered`));
    }
    if (mine.result !== undefined) {
      if (!twin) await s.delete(k);
      return { result: mine.result, twin };
    }
    // The lease is tried at once and then every third round: while someone folds, waiting costs one read a round.
    const lease = round % 3 === 0 ? await acquire(s, c.leaseKey, owner) : null;
    if (lease) {
      let after: (() => Promise<void>) | undefined;
      try {
        after = await foldWaiting(c);
      } finally {
        await release(s, c.leaseKey, lease);
      }
      await after?.().catch((e: unknown) => console.error('[combine] work after a fold failed', e));
      continue;
    }
    if (performance.now() > deadline)
      throw new StoreUnavailableError(new Error(`${c.docKey}: no fold within the budget`));
    await sleep(wait * (0.5 + Math.random()));
    wait = Math.min(400, wait * 1.6);
  }
}
