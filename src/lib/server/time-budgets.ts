import { appSettings, isLocalMode } from './app-env.ts';

/**
 * How long a function waits on anything outside itself. Netlify stops a
 * synchronous function at 10 s, so every outbound wait has a budget, declared
 * here once: the store and the providers read them, a unit test holds their
 * worst case under the limit, and API tests shrink them (never a real
 * multi-second wait for a fake server that hangs).
 */
export const FUNCTION_LIMIT_MS = 10_000;

export const PRODUCTION_BUDGETS = {
  /** One Blobs request (then one quick retry after a 5xx/429; a timeout is not retried). */
  storeRequestMs: 3000,
  /** Pause before that one retry. */
  storeRetryDelayMs: 150,
  /** Compare-and-set retries on a contended document stop after this long (then 409). */
  casRetryMs: 5000,
  /** SendGrid, Twilio and Turnstile calls. */
  emailMs: 4000,
  smsMs: 5000,
  captchaMs: 4000,
} as const;

export type TimeBudgets = { -readonly [K in keyof typeof PRODUCTION_BUDGETS]: number };

/**
 * Local mode (dev server, tests) talks to the local Blobs server on this
 * machine. It does not hang, but a write the client aborts can leave an empty
 * blob behind (measured: 158 of 300 PUTs aborted mid-request stored ""), so on
 * a busy machine a store call waits rather than gives up, and so does a
 * compare-and-set on a contended document (a queued local write can wait behind
 * dozens of others). Tests that need a store timeout set one (setTestBudgets).
 */
const LOCAL_BUDGETS: TimeBudgets = { ...PRODUCTION_BUDGETS, storeRequestMs: 60_000, casRetryMs: 60_000 };

let override: TimeBudgets | null = null;

/** The budgets in force: production's, local mode's, or what a test set. */
export function budgets(): Readonly<TimeBudgets> {
  return override ?? (isLocalMode() ? LOCAL_BUDGETS : PRODUCTION_BUDGETS);
}

/** APP_ENV=test only: other budgets (e.g. 200 ms), so a hanging fake provider costs milliseconds; null restores. */
export function setTestBudgets(patch: Partial<TimeBudgets> | null): void {
  if (appSettings().APP_ENV !== 'test')
    throw new Error('Time budgets can only be changed under APP_ENV=test');
  override = patch ? { ...budgets(), ...patch } : null;
}
