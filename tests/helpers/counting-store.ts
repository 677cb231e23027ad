import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';

/**
 * A KV that counts every call it passes on to another KV (by default the
 * atomic in-memory store), so a test can assert "this request cost at most N
 * store calls" however many records the store holds
 * (docs/decisions/153-storage.md).
 * A key listing counts once as a `list` call and once per page it yields
 * (`listPages`): on Netlify each page is its own round trip.
 */
export type CountedOp =
  'get' | 'create' | 'replace' | 'put' | 'putBytes' | 'getBytes' | 'delete' | 'list' | 'listPages';

export type Counts = Record<CountedOp, number>;

const zero = (): Counts => ({
  get: 0,
  create: 0,
  replace: 0,
  put: 0,
  putBytes: 0,
  getBytes: 0,
  delete: 0,
  list: 0,
  listPages: 0,
});

/** Round trips of a count: every call, each listed page after the first one included. */
export const roundTrips = (c: Counts): number =>
  c.get + c.create + c.replace + c.put + c.putBytes + c.getBytes + c.delete + Math.max(c.list, c.listPages);

export class CountingKV implements KV {
  readonly counts: Counts = zero();
  /** Every key read with `get`, in order (for messages when a bound is passed). */
  readonly reads: string[] = [];
  /** Calls per key (a listing under its prefix): what one record cost. */
  readonly byKey = new Map<string, number>();
  readonly inner: KV;

  constructor(inner: KV = new MemoryKV()) {
    this.inner = inner;
  }

  reset(): void {
    Object.assign(this.counts, zero());
    this.reads.length = 0;
    this.byKey.clear();
  }

  private hit(k: string | undefined): void {
    const key = k ?? '';
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
  }

  get<T>(k: string) {
    this.counts.get++;
    this.hit(k);
    this.reads.push(k);
    return this.inner.get<T>(k);
  }
  create(k: string, value: unknown) {
    this.counts.create++;
    this.hit(k);
    return this.inner.create(k, value);
  }
  replace(k: string, value: unknown, etag: string) {
    this.counts.replace++;
    this.hit(k);
    return this.inner.replace(k, value, etag);
  }
  put(k: string, value: unknown) {
    this.counts.put++;
    this.hit(k);
    return this.inner.put(k, value);
  }
  putBytes(k: string, data: ArrayBuffer, metadata: Record<string, string>) {
    this.counts.putBytes++;
    this.hit(k);
    return this.inner.putBytes(k, data, metadata);
  }
  getBytes(k: string) {
    this.counts.getBytes++;
    this.hit(k);
    return this.inner.getBytes(k);
  }
  delete(k: string) {
    this.counts.delete++;
    this.hit(k);
    return this.inner.delete(k);
  }
  async *keys(prefix?: string): AsyncIterable<string[]> {
    this.counts.list++;
    this.hit(prefix);
    for await (const page of this.inner.keys(prefix)) {
      this.counts.listPages++;
      yield page;
    }
  }
}

export interface CountingStores {
  /** The counting store behind `kv(name)` (created on first use). */
  store(name: StoreName): CountingKV;
  /** Zeroes every store's counts. */
  reset(): void;
  /** The counts summed over every store (or over the named ones). */
  counts(...names: StoreName[]): Counts;
  /** Round trips summed over every store (or over the named ones): what a request costs on Netlify. */
  calls(...names: StoreName[]): number;
  /** Calls per `<store> <key>` since the last reset, over every store. */
  byKey(): Map<string, number>;
  /** Runs `work` from zeroed counts: its value and the store calls it made (SHOW_CALLS=1 prints them). */
  cost<T>(work: () => Promise<T>): Promise<{ calls: number; value: T }>;
}

/**
 * Points every store at a counting wrapper over its own atomic in-memory KV
 * (`setStoreFactory(null)` goes back to Blobs).
 */
export function useCountingStores(): CountingStores {
  const stores = new Map<StoreName, CountingKV>();
  const store = (name: StoreName) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new CountingKV()));
    return s;
  };
  setStoreFactory(store);
  const pick = (names: StoreName[]) =>
    names.length ? names.map((n) => stores.get(n)).filter((s) => s !== undefined) : [...stores.values()];
  const counts = (...names: StoreName[]) => {
    const sum = zero();
    for (const s of pick(names)) for (const op of Object.keys(sum) as CountedOp[]) sum[op] += s.counts[op];
    return sum;
  };
  const reset = () => stores.forEach((s) => s.reset());
  const calls = (...names: StoreName[]) => pick(names).reduce((n, s) => n + roundTrips(s.counts), 0);
  const byKey = () => {
    const out = new Map<string, number>();
    for (const [name, s] of stores) for (const [k, n] of s.byKey) out.set(`${name} ${k}`, n);
    return out;
  };
  return {
    store,
    reset,
    counts,
    calls,
    byKey,
    cost: async (work) => {
      reset();
      const value = await work();
      if (process.env.SHOW_CALLS) console.log(calls(), JSON.stringify(counts()));
      return { calls: calls(), value };
    },
  };
}

/** Runs `work` and returns the store calls it made (every store); SHOW_CALLS=1 prints each measurement. */
export async function callsOf(stores: CountingStores, work: () => Promise<unknown>): Promise<number> {
  stores.reset();
  await work();
  if (process.env.SHOW_CALLS) console.log(stores.calls(), JSON.stringify(stores.counts()));
  return stores.calls();
}
