import { describe, expect, it } from 'vitest';
import { FUNCTION_LIMIT_MS, PRODUCTION_BUDGETS } from '../../src/lib/server/time-budgets.ts';

/*
 * The API tests shrink the budgets so a hanging fake server costs milliseconds;
 * this holds what production runs with: every way a request can wait on the
 * outside world ends, with an answer, well inside Netlify's 10 s function limit.
 */
const b = PRODUCTION_BUDGETS;
/** A store call that fails: its attempt and its one retry share one budget (plus the pause between). */
const failingStoreCall = b.storeRequestMs + b.storeRetryDelayMs;

describe('production time budgets', () => {
  it('a failing store call, alone or after a captcha check, answers inside the function limit', () => {
    expect(failingStoreCall).toBeLessThan(FUNCTION_LIMIT_MS * 0.7);
    expect(b.captchaMs + failingStoreCall).toBeLessThan(FUNCTION_LIMIT_MS);
  });

  it('compare-and-set retries and each provider call stop well before the limit', () => {
    for (const [name, ms] of Object.entries(b)) expect(ms, name).toBeLessThanOrEqual(FUNCTION_LIMIT_MS / 2);
  });
});
