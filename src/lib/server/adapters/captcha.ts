import { createHash } from 'node:crypto';
import { CAPTCHA_REQUIRED } from '../../schemas/forms.ts';
import { ConfigError, env, isLocalMode, TURNSTILE_TEST_SECRET, TURNSTILE_TEST_TOKEN } from '../env.ts';
import { HttpError, UNAVAILABLE_MESSAGE } from '../errors.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { budgets } from '../time-budgets.ts';

/** Turnstile answers in well under a second; past this the verifier counts as down (fail closed). */

interface SiteverifyResponse {
  success?: boolean;
  'error-codes'?: string[];
}

const rejected = () => new HttpError(400, CAPTCHA_REQUIRED);
const unavailable = () => new HttpError(503, UNAVAILABLE_MESSAGE, {}, { 'Retry-After': '30' });

/**
 * Verifies a Cloudflare Turnstile token server-side (siteverify), then records
 * a hash of it so the same token can never be accepted twice.
 *
 * - missing, failed, expired or reused token -> 400 'Please complete the CAPTCHA'
 * - verifier unreachable, slow (> 4 s) or 5xx -> 503 (fail closed)
 * - local mode without TURNSTILE_SECRET_KEY: only Turnstile's documented dummy
 *   token is accepted (the local test widget produces it)
 * - production without a secret, or with Turnstile's always-pass test secret: ConfigError (503)
 */
export async function verifyCaptcha(token: string | undefined, remoteIp?: string): Promise<void> {
  const { TURNSTILE_SECRET_KEY: secret, TURNSTILE_VERIFY_URL } = env();
  if (!isLocalMode() && (!secret || secret === TURNSTILE_TEST_SECRET)) {
    throw new ConfigError(
      secret ? 'TURNSTILE_SECRET_KEY is the public test secret' : 'TURNSTILE_SECRET_KEY is not set',
    );
  }
  if (!token || token.length > 4096) throw rejected();

  if (!secret) {
    // Local mode: no provider to ask. Only the documented dummy token passes,
    // and it is not recorded (the local widget hands it out every time).
    if (token !== TURNSTILE_TEST_TOKEN) throw rejected();
    console.info('[captcha] local mode: accepted the Turnstile dummy test token');
    return;
  }

  const body = new URLSearchParams({ secret, response: token });
  if (remoteIp && remoteIp !== 'unknown') body.set('remoteip', remoteIp);
  let res: Response;
  try {
    res = await fetch(TURNSTILE_VERIFY_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(budgets().captchaMs),
    });
  } catch (err) {
    console.error(`[captcha] verifier unreachable: ${(err as Error).name}`);
    throw unavailable();
  }
  if (res.status >= 500 || res.status === 429) {
    console.error(`[captcha] verifier answered ${res.status}`);
    throw unavailable();
  }
  let result: SiteverifyResponse;
  try {
    result = (await res.json()) as SiteverifyResponse;
  } catch {
    console.error(`[captcha] verifier answered ${res.status} without JSON`);
    throw unavailable();
  }
  if (result.success !== true) {
    const codes = result['error-codes'] ?? [];
    // A misconfigured secret is our fault, not the visitor's.
    if (codes.some((c) => c === 'missing-input-secret' || c === 'invalid-input-secret')) {
      throw new ConfigError(`Turnstile rejected the secret (${codes.join(',')})`);
    }
    throw rejected();
  }
  // Turnstile also rejects duplicates ('timeout-or-duplicate'); this record
  // holds even if the verifier were lenient or a token were replayed in the
  // window between two concurrent siteverify calls.
  const digest = createHash('sha256').update(token).digest('hex');
  const fresh = await kv('meta').create(key('captcha', digest), { at: new Date().toISOString() });
  if (!fresh) throw rejected();
}
