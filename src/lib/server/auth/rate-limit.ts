import { randomInt } from 'node:crypto';
import { ConflictError, update, upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { HttpError } from '../errors.ts';
import { clientNetwork } from './client-network.ts';

/**
 * Fixed-window attempt counters in Blobs (store `ratelimit`), documented in
 * docs/decisions/160-staff-sign-in-and-sessions.md (sign-in) and docs/decisions/151-texting.md (text sign-up
 * limits). Never a permanent lock: a window always ends.
 *
 * The one rule: **reserve before the work**. `reserveAttempt` counts the
 * attempt with a compare-and-set write *before* the password is verified,
 * the code checked or the text sent, and refuses (429, nothing written)
 * once the window is used up. So N parallel requests can never all pass a
 * check made before any of them was counted (docs/decisions/151-texting.md).
 * Login, forgot-password and the text sign-up use it; a second factor can too.
 *
 * Every function takes `now` (ms) so tests use a fake clock.
 */
export interface Limit {
  /** Attempts allowed in a window; the next one gets 429. */
  max: number;
  windowSeconds: number;
}

export const LIMITS = {
  /** Per account (resolved by id: username and email share one counter), unknown names per typed name. */
  loginAccount: { max: 5, windowSeconds: 15 * 60 },
  /** Per platform client IP, across all accounts. */
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

const TOO_MANY = (retryAfter: number) =>
  `Too many attempts. Please try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`;

/** The 429 every limiter answers: a person-readable message and Retry-After in seconds. */
export function tooManyRequests(retryAfterSeconds: number, message = TOO_MANY): HttpError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, message(retryAfter), {}, { 'Retry-After': String(retryAfter) });
}

export interface ReserveOptions {
  /** Current time in ms (default Date.now()). */
  now?: number;
  /** The 429 message, given the seconds until the window ends. */
  message?: (retryAfterSeconds: number) => string;
}

/** One counted attempt. */
export interface Attempt {
  /** Attempts left in this window after this one (0: this was the last before a 429). */
  remaining: number;
  /** When this window ends (ms). */
  windowEndsAt: number;
  /** Gives this attempt back (it should not count, e.g. a successful sign-in from a shared IP). */
  release(): Promise<void>;
  /** Clears the subject's window (a success that proves the subject, e.g. the right password). */
  clear(): Promise<void>;
}

/**
 * Counts one attempt for `subject` under `scope`, atomically, or throws 429
 * with Retry-After (and writes nothing) when the window is already used up.
 * A counter too contended to update in the retry budget also answers 429:
 * a limiter never lets an attempt through uncounted.
 */
export async function reserveAttempt(
  scope: string,
  subject: string,
  limit: Limit,
  options: ReserveOptions = {},
): Promise<Attempt> {
  const now = options.now ?? Date.now();
  const k = counterKey(scope, subject);
  let reserved: Counter;
  try {
    reserved = await upsert<Counter>(kv('ratelimit'), k, (cur) => {
      const c = active(cur, limit, now);
      if (c.count >= limit.max) {
        throw tooManyRequests((c.windowStart + limit.windowSeconds * 1000 - now) / 1000, options.message);
      }
      return { count: c.count + 1, windowStart: c.windowStart };
    });
  } catch (err) {
    if (err instanceof ConflictError) throw tooManyRequests(5, options.message);
    throw err;
  }
  return {
    remaining: Math.max(0, limit.max - reserved.count),
    windowEndsAt: reserved.windowStart + limit.windowSeconds * 1000,
    release: async () => {
      await update<Counter>(kv('ratelimit'), k, (cur) =>
        cur.windowStart === reserved.windowStart && cur.count > 0 ? { ...cur, count: cur.count - 1 } : cur,
      ).catch((err: unknown) => console.error(`[rate-limit] could not release a ${scope} attempt`, err));
    },
    clear: async () => {
      await kv('ratelimit')
        .delete(k)
        .catch((err: unknown) => console.error(`[rate-limit] could not clear a ${scope} counter`, err));
    },
  };
}

/**
 * `reserveAttempt` for a per-client limit: the subject is the client's network (clientNetwork: the IPv4
 * address, the IPv6 /64), never the raw address, so one machine's many IPv6 addresses share one counter
 * (docs/decisions/159-public-forms.md). Every per-address limit goes through this or
 * `reserveClientAttempts` (tests/unit/client-network.test.ts fails on a per-IP call of the plain ones).
 */
export function reserveClientAttempt(
  scope: string,
  ip: string,
  limit: Limit,
  options: ReserveOptions = {},
): Promise<Attempt> {
  return reserveAttempt(scope, clientNetwork(ip), limit, options);
}

/** One counter of a combined reservation: its limit, and whether this request takes a slot of it. */
export interface CounterSpec {
  name: string;
  limit: Limit;
  take: boolean;
}

/**
 * Several counters of one subject in one document and one compare-and-set
 * write (e.g. an IP's sign-ups and its confirmation texts): every counter
 * taken must have room, else 429 (Retry-After of the first full one) and
 * nothing is written. Fewer store round trips than one reservation each.
 */
export async function reserveAttempts(
  scope: string,
  subject: string,
  specs: readonly CounterSpec[],
  options: ReserveOptions = {},
): Promise<void> {
  const now = options.now ?? Date.now();
  try {
    await upsert<Record<string, Counter>>(kv('ratelimit'), counterKey(scope, subject), (cur) => {
      const next: Record<string, Counter> = { ...(cur ?? {}) };
      for (const spec of specs) {
        const c = active(cur?.[spec.name] ?? null, spec.limit, now);
        if (spec.take && c.count >= spec.limit.max) {
          throw tooManyRequests(
            (c.windowStart + spec.limit.windowSeconds * 1000 - now) / 1000,
            options.message,
          );
        }
        next[spec.name] = spec.take ? { count: c.count + 1, windowStart: c.windowStart } : c;
      }
      return next;
    });
  } catch (err) {
    if (err instanceof ConflictError) throw tooManyRequests(5, options.message);
    throw err;
  }
}

/** `reserveAttempts` for a per-client document of counters, keyed by the client's network (see reserveClientAttempt). */
export function reserveClientAttempts(
  scope: string,
  ip: string,
  specs: readonly CounterSpec[],
  options: ReserveOptions = {},
): Promise<void> {
  return reserveAttempts(scope, clientNetwork(ip), specs, options);
}

// ---------------------------------------------------------------------------
// Site-wide budgets: one limit for everybody (e.g. confirmation texts per day).

/**
 * Shards of a site-wide budget. Every request of the site writes the budget,
 * so one document would be a write hot spot; each shard holds its share of
 * every counter's `max` (the shares sum to exactly `max`), and a request takes
 * its slots from one shard with room, starting at a random one.
 */
export const BUDGET_SHARDS = 64;

export interface SiteBudgetUsage {
  used: number;
  max: number;
  /** Start of the current window (ms). */
  windowStart: number;
  windowEnd: number;
}

/** A site-wide budget refused because it is spent for this window (not merely busy). */
export class BudgetSpentError extends HttpError {
  readonly budget: string;
  constructor(budget: string, retryAfterSeconds: number, message?: (s: number) => string) {
    const e = tooManyRequests(retryAfterSeconds, message);
    super(e.status, e.message, e.extra, e.headers);
    this.name = 'BudgetSpentError';
    this.budget = budget;
  }
}

const shardShare = (max: number, shard: number) =>
  Math.floor(max / BUDGET_SHARDS) + (shard < max % BUDGET_SHARDS ? 1 : 0);

/** Site-wide windows are aligned (a UTC day, an hour), so every shard agrees on them. */
const alignedStart = (now: number, limit: Limit) =>
  Math.floor(now / (limit.windowSeconds * 1000)) * limit.windowSeconds * 1000;

const shardKey = (scope: string, shard: number) => key('site', scope, `shard-${shard}`);

type ShardDoc = Record<string, Counter>;

/**
 * Takes one slot of each counter in `specs` with `take` from one shard of a
 * site-wide budget (one read and one compare-and-set write when there is
 * room), or throws 429: a BudgetSpentError (Retry-After until that counter's
 * window ends) when a counter has no room left in any shard, else a short
 * "busy" 429. Nothing is written on a refusal.
 */
export async function reserveSiteBudgets(
  scope: string,
  specs: readonly CounterSpec[],
  options: ReserveOptions = {},
): Promise<void> {
  const now = options.now ?? Date.now();
  const store = kv('ratelimit');
  // One compare-and-set attempt per shard, moving on at once when another writer got there first (no
  // back-off on one hot key); a few passes over the shards before a busy budget counts as refused.
  for (let pass = 0; pass < 4; pass++) {
    let contended = false;
    const roomFor = new Set<string>();
    const first = randomInt(BUDGET_SHARDS);
    for (let i = 0; i < BUDGET_SHARDS; i++) {
      const shard = (first + i) % BUDGET_SHARDS;
      const k = shardKey(scope, shard);
      const cur = await store.get<ShardDoc>(k);
      const counts = specs.map((spec) => {
        const windowStart = alignedStart(now, spec.limit);
        const c = cur?.value[spec.name];
        const count = c?.windowStart === windowStart ? c.count : 0;
        const room = count < shardShare(spec.limit.max, shard);
        if (spec.take && room) roomFor.add(spec.name);
        return { spec, windowStart, count, room };
      });
      // A shard without room is left without a write, so a spent budget costs reads only.
      if (counts.some((x) => x.spec.take && !x.room)) continue;
      const next: ShardDoc = { ...(cur?.value ?? {}) };
      for (const x of counts)
        next[x.spec.name] = { count: x.count + (x.spec.take ? 1 : 0), windowStart: x.windowStart };
      if (cur ? await store.replace(k, next, cur.etag) : await store.create(k, next)) return;
      contended = true;
    }
    if (!contended) {
      const spent = specs.find((spec) => spec.take && !roomFor.has(spec.name));
      if (spent) {
        const end = alignedStart(now, spent.limit) + spent.limit.windowSeconds * 1000;
        throw new BudgetSpentError(spent.name, (end - now) / 1000, options.message);
      }
      break; // room for each counter, but not in one shard together: busy, near the caps
    }
    await new Promise((r) => setTimeout(r, 5 + randomInt(20)));
  }
  throw tooManyRequests(5, options.message);
}

/** How much of one counter of a site-wide budget the current window has used (reads every shard). */
export async function siteBudgetUsage(
  scope: string,
  name: string,
  limit: Limit,
  now = Date.now(),
): Promise<SiteBudgetUsage> {
  const windowStart = alignedStart(now, limit);
  const docs = await Promise.all(
    Array.from({ length: BUDGET_SHARDS }, (_, i) => kv('ratelimit').get<ShardDoc>(shardKey(scope, i))),
  );
  const used = docs.reduce((sum, d) => {
    const c = d?.value[name];
    return sum + (c?.windowStart === windowStart ? c.count : 0);
  }, 0);
  return { used, max: limit.max, windowStart, windowEnd: windowStart + limit.windowSeconds * 1000 };
}
