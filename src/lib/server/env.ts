import { z } from 'zod';
import { appSettings, ConfigError, isLocalMode, resetAppSettings, type AppSettings } from './app-env.ts';

export { ConfigError, isLocalMode };

/**
 * Every setting the server reads, validated once. Local mode (APP_ENV
 * development or test) may fall back to documented dev values; production
 * fails loudly instead (see docs/deploy.md). APP_ENV and SITE_URL are parsed
 * by app-env.ts, without zod, so functions that never parse input start
 * without loading it.
 */
const EnvSchema = z.object({
  SESSION_SECRET: z.string().optional(),
  CANDIDATE_EVENTS_EMAIL: z.string().optional(),
  // Email (SendGrid HTTP API)
  SENDGRID_API_KEY: z.string().optional(),
  SENDGRID_API_URL: z.url().default('https://api.sendgrid.com'),
  EMAIL_FROM: z.string().default('no-reply@localhost'),
  CAMPAIGN_INBOX_EMAIL: z.string().default('team@localhost'),
  // SMS (Twilio)
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().optional(),
  TWILIO_FROM_NUMBER: z.string().optional(),
  TWILIO_API_URL: z.url().optional(),
  // Captcha (Cloudflare Turnstile siteverify)
  TURNSTILE_SECRET_KEY: z.string().optional(),
  TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  // Bootstrap (npm run create-admin reads these too)
  BLOBS_STORE_PREFIX: z.string().default(''),
});

export type Env = z.infer<typeof EnvSchema> & AppSettings;

let cached: Env | null = null;

/** Reads and validates the environment (cached; tests call resetEnv after changing it). */
export function env(): Env {
  cached ??= { ...EnvSchema.parse(process.env), ...appSettings() };
  return cached;
}

export function resetEnv(): void {
  cached = null;
  resetAppSettings();
}

/** Turnstile's documented always-pass test secret. Refused in production. */
export const TURNSTILE_TEST_SECRET = '1x0000000000000000000000000000000AA';
/** The matching dummy token the test widget produces. */
export const TURNSTILE_TEST_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

const DEV_SESSION_SECRET = 'dev-only-session-secret-do-not-use-in-production-0123456789';

/** HS256 key: >= 256 bits from the environment; a dev value only in local mode. */
export function sessionSecret(): Uint8Array {
  const secret = env().SESSION_SECRET ?? (isLocalMode() ? DEV_SESSION_SECRET : undefined);
  if (!secret || Buffer.byteLength(secret) < 32) {
    throw new ConfigError('SESSION_SECRET must be set to at least 32 bytes');
  }
  return new TextEncoder().encode(secret);
}
