import { upsert } from './compare-and-set.ts';
import { key } from './keys.ts';
import { kv } from './stores.ts';

/**
 * Allocates the next numeric id for a collection. The counter is a
 * compare-and-set document; the record itself is then created with onlyIfNew,
 * so even a non-atomic counter cannot make two records share an id.
 */
export async function nextId(counterName: string): Promise<number> {
  const n = await upsert<{ value: number }>(kv('meta'), key('counter', counterName), (cur) => ({
    value: (cur?.value ?? 0) + 1,
  }));
  return n.value;
}

/**
 * Raises a collection's id counter to at least `atLeast` (after records were
 * created with fixed ids, e.g. by the seed), so nextId never hands them out again.
 */
export async function bumpCounter(counterName: string, atLeast: number): Promise<void> {
  const k = key('counter', counterName);
  const cur = await kv('meta').get<{ value: number }>(k);
  if (cur && cur.value.value >= atLeast) return;
  await upsert<{ value: number }>(kv('meta'), k, (c) => ({ value: Math.max(c?.value ?? 0, atLeast) }));
}
