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
  /** The Campaign Verify token the campaign's 10DLC registration used; production texts only once it is set. */
  CAMPAIGN_VERIFY_TOKEN: z.string().optional(),
  // Text sign-up abuse limits (src/lib/server/texting/text-limits.ts; docs/deploy.md, "Text messages")
  /** ISO country codes whose phone numbers the public forms accept, comma-separated (default US). */
  SMS_ALLOWED_COUNTRIES: z.string().default('US'),
  /** Confirmation texts per UTC day for the whole site (default 500). */
  SMS_DAILY_CAP: z.string().optional(),
  /** Text sign-ups per hour for the whole site (default 1000). */
  TEXT_SIGNUP_HOURLY_CAP: z.string().optional(),
  TEXT_SIGNUP_NOSCRIPT_HOURLY_CAP: z.string().optional(),
  // Captcha (Cloudflare Turnstile siteverify)
  TURNSTILE_SECRET_KEY: z.string().optional(),
  TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  // Donations: ActBlue webhook (HTTP Basic credentials ActBlue is given) and the donor-key HMAC secret
  ACTBLUE_WEBHOOK_USERNAME: z.string().optional(),
  ACTBLUE_WEBHOOK_PASSWORD: z.string().optional(),
  DONOR_KEY_SECRET: z.string().optional(),
  // Stage rebuilds: the Netlify build hook the scheduled stage check calls (docs/decisions/157-election-calendar.md)
  BUILD_HOOK_URL: z.url({ protocol: /^https$/ }).optional(),
  // Broadcasts (docs/deploy.md, "Broadcasts"; docs/decisions/152-broadcasts.md)
  /** Quiet hours for campaign-timed texts in the recipient's zone, "H-H" (default 9-20, never wider than 8-21). */
  SMS_SEND_WINDOW: z.string().optional(),
  /** Text segments (or emails) a minute, site-wide, across every broadcast (default 3000). */
  BROADCAST_RATE_PER_MINUTE: z.string().optional(),
  /** Dollars per text segment, for the estimate shown before sending (default 0.0083). */
  SMS_PRICE_PER_SEGMENT: z.string().optional(),
  /** SendGrid's Event Webhook verification key (base64 DER of its ECDSA P-256 public key). */
  SENDGRID_WEBHOOK_PUBLIC_KEY: z.string().optional(),
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

/** The local-mode session key. It is in this public repository, so production refuses it. */
export const DEV_SESSION_SECRET = 'dev-only-session-secret-do-not-use-in-production-0123456789';
export const MIN_SESSION_SECRET_BYTES = 32;

/**
 * HS256 key: >= 256 bits from the environment; the dev value only in local
 * mode. Production refuses a missing or short secret and the published dev
 * one (ConfigError: every request that needs a session answers 503).
 */
export function sessionSecret(): Uint8Array {
  const secret = env().SESSION_SECRET ?? (isLocalMode() ? DEV_SESSION_SECRET : undefined);
  if (!secret || Buffer.byteLength(secret) < MIN_SESSION_SECRET_BYTES) {
    throw new ConfigError(`SESSION_SECRET must be set to at least ${MIN_SESSION_SECRET_BYTES} bytes`);
  }
  if (!isLocalMode() && secret === DEV_SESSION_SECRET) {
    throw new ConfigError('SESSION_SECRET is the published development secret');
  }
  return new TextEncoder().encode(secret);
}
