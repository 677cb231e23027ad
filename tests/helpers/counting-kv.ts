import type { KV } from '../../src/lib/server/storage/kv.ts';

/** What a burst cost at the store: conditional writes, and how many of them lost (a conflict, then a retry or a 409). */
export interface KVCounts {
  creates: number;
  createConflicts: number;
  replaces: number;
  replaceConflicts: number;
}

export const zeroCounts = (): KVCounts => ({
  creates: 0,
  createConflicts: 0,
  replaces: 0,
  replaceConflicts: 0,
});

/** Wraps a KV and counts its conditional writes and conflicts (the race tests report them rather than hide them). */
export function counting(inner: KV, counts: KVCounts): KV {
  return {
    get: (k) => inner.get(k),
    create: async (k, v) => {
      counts.creates += 1;
      const ok = await inner.create(k, v);
      if (!ok) counts.createConflicts += 1;
      return ok;
    },
    replace: async (k, v, etag) => {
      counts.replaces += 1;
      const next = await inner.replace(k, v, etag);
      if (next === null) counts.replaceConflicts += 1;
      return next;
    },
    put: (k, v) => inner.put(k, v),
    putBytes: (k, d, m) => inner.putBytes(k, d, m),
    getBytes: (k) => inner.getBytes(k),
    delete: (k) => inner.delete(k),
    keys: (p) => inner.keys(p),
  };
}
