import { budgets } from '../time-budgets.ts';
import type { KV } from './kv.ts';

/**
 * The storage engine's compare-and-set (docs/decisions/153-storage.md): every read-modify-write of
 * a shared document reads it with its ETag and replaces it only if the ETag still matches, retrying
 * with backoff within a time budget, then answering 409 (retryable). A hot document many write at once
 * goes through the combiner instead (combiner.ts).
 */

// Read-modify-write helpers

/**
 * A 409. Either someone else changed the record since the person loaded it
 * (they must reload and decide), or, `retryable`, a burst of writers kept one
 * shared document busy past the retry budget: the request changed nothing and
 * may simply be sent again (answered with Retry-After).
 */
export class ConflictError extends Error {
  readonly retryable: boolean;
  constructor(message = 'This record was changed by someone else. Reload and try again.', retryable = false) {
    super(message);
    this.name = 'ConflictError';
    this.retryable = retryable;
  }
}

/** Contention on a shared document outlasted the retry budget; nothing was written. */
export const BUSY_MESSAGE = 'Too many concurrent changes. Please try again.';

/**
 * Applies `change` to the current value under optimistic concurrency, retrying
 * when another writer got there first. `change` may throw (e.g. ConflictError
 * or an HttpError) to abort. Returns null when the key does not exist.
 */
export async function update<T>(
  store: KV,
  k: string,
  change: (current: T) => T | Promise<T>,
  budgetMs = budgets().casRetryMs,
): Promise<T | null> {
  const deadline = Date.now() + budgetMs;
  for (let i = 0; ; i++) {
    const cur = await store.get<T>(k);
    if (!cur) return null;
    const next = await change(cur.value);
    if (await store.replace(k, next, cur.etag)) return next;
    if (!(await backoff(i, deadline))) break;
  }
  throw new ConflictError(BUSY_MESSAGE, true);
}

/** Returned by an upsert `change` when nothing needs writing (e.g. an idempotent replay). */
export const UNCHANGED: unique symbol = Symbol('unchanged');

/**
 * Creates or updates a shared document (a counter, an index) under optimistic
 * concurrency. `change` may return UNCHANGED to skip the write; the current
 * value is then returned (null if there is none).
 */
export async function upsert<T>(
  store: KV,
  k: string,
  change: (current: T | null) => T | typeof UNCHANGED | Promise<T | typeof UNCHANGED>,
  budgetMs = budgets().casRetryMs,
): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let i = 0; ; i++) {
    const cur = await store.get<T>(k);
    const next = await change(cur ? cur.value : null);
    if (next === UNCHANGED) return cur ? cur.value : (null as T);
    const ok = cur ? await store.replace(k, next, cur.etag) : await store.create(k, next);
    if (ok) return next;
    if (!(await backoff(i, deadline))) break;
  }
  throw new ConflictError(BUSY_MESSAGE, true);
}

/** Jittered exponential backoff; false when the next wait would pass the deadline. */
async function backoff(attempt: number, deadline: number): Promise<boolean> {
  const ms = Math.min(150, 5 * 2 ** attempt) * (0.5 + Math.random());
  if (Date.now() + ms > deadline) return false;
  await new Promise((r) => setTimeout(r, ms));
  return true;
}
