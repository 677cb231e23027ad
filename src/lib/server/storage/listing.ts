import type { KV } from './kv.ts';

/** Every key under a prefix, sorted (the one key listing: the SDK pages them 1,000 at a time). */
export async function listKeys(store: KV, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const page of store.keys(prefix)) out.push(...page);
  return out.sort();
}

/** Reads every JSON value under a prefix. O(n) reads: for rebuilds and exports, not hot paths. */
export async function readAll<T>(store: KV, prefix: string): Promise<T[]> {
  const out: T[] = [];
  for await (const page of store.keys(prefix)) {
    const values = await Promise.all(page.map((k) => store.get<T>(k)));
    for (const v of values) if (v) out.push(v.value);
  }
  return out;
}
