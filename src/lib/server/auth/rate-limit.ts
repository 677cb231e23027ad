import { hashed, key, kv, upsert } from '../store.ts';
import { HttpError } from '../errors.ts';

/**
 * Fixed-window failure counters in Blobs, per account and per client IP.
 * Documented in docs/decisions.md ("Brute-force limits"). Never a permanent lock.
 */
export interface Limit {
  /** Failures allowed in a window before 429. */
  max: number;
  windowSeconds: number;
}

export const LIMITS = {
  loginAccount: { max: 5, windowSeconds: 15 * 60 },
  loginIp: { max: 30, windowSeconds: 15 * 60 },
  forgotAccount: { max: 3, windowSeconds: 60 * 60 },
  forgotIp: { max: 10, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Limit>;

interface Counter {
  count: number;
  windowStart: number;
}

const counterKey = (scope: string, subject: string) => key(scope, hashed(subject));

function active(c: Counter | null, limit: Limit, now: number): Counter {
  if (!c || now - c.windowStart >= limit.windowSeconds * 1000) return { count: 0, windowStart: now };
  return c;
}

/** Throws 429 with Retry-After when the subject has used up its window. */
export async function assertNotLimited(
  scope: string,
  subject: string,
  limit: Limit,
  now = Date.now(),
): Promise<void> {
  const cur = await kv('ratelimit').get<Counter>(counterKey(scope, subject));
  const c = active(cur?.value ?? null, limit, now);
  if (c.count >= limit.max) {
    const retryAfter = Math.max(1, Math.ceil((c.windowStart + limit.windowSeconds * 1000 - now) / 1000));
    throw new HttpError(
      429,
      `Too many attempts. Please try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`,
      {},
      { 'Retry-After': String(retryAfter) },
    );
  }
}

export async function recordAttempt(
  scope: string,
  subject: string,
  limit: Limit,
  now = Date.now(),
): Promise<void> {
  await upsert<Counter>(kv('ratelimit'), counterKey(scope, subject), (cur) => {
    const c = active(cur, limit, now);
    return { count: c.count + 1, windowStart: c.windowStart };
  });
}

export async function resetAttempts(scope: string, subject: string): Promise<void> {
  await kv('ratelimit').delete(counterKey(scope, subject));
}
