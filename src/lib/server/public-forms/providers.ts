import { ConfigError, env, isLocalMode, TURNSTILE_TEST_SECRET } from '../env.ts';
import { textSendingRefusal } from '../adapters/sms.ts';

/**
 * Production refuses to run a form endpoint whose providers are missing or
 * set to test values (503 before anything is stored); local mode uses the
 * Blobs outbox and Turnstile's dummy token instead.
 */
export interface FormProviders {
  captcha?: boolean;
  email?: boolean;
  sms?: boolean;
}

export function requireFormProviders(needs: FormProviders): void {
  if (isLocalMode()) return;
  const e = env();
  if (needs.captcha && (!e.TURNSTILE_SECRET_KEY || e.TURNSTILE_SECRET_KEY === TURNSTILE_TEST_SECRET)) {
    throw new ConfigError('TURNSTILE_SECRET_KEY is missing or the public test secret');
  }
  if (needs.email && !e.SENDGRID_API_KEY) throw new ConfigError('SENDGRID_API_KEY is not set');
  // Texts: Twilio, the registered Messaging Service and the Campaign Verify token (docs/decisions/085-launch-gate.md).
  const textRefusal = needs.sms ? textSendingRefusal() : null;
  if (textRefusal) throw new ConfigError(textRefusal);
}
