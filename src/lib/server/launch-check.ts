import { createPublicKey } from 'node:crypto';
import { formatEventDate } from '../campaign-time.ts';
import { electionStage, type ElectionCalendar } from '../election-stage.ts';
import type { LaunchItem } from '../schemas/launch-check.ts';
import { DEV_SESSION_SECRET, MIN_SESSION_SECRET_BYTES, TURNSTILE_TEST_SECRET } from './env.ts';
import { TEXT_SETTING_CHECKS, type TextSettingName } from './adapters/sms-registration.ts';

/**
 * The launch gate (docs/decisions/085-launch-gate.md): what must still be
 * replaced or set before the site goes live. Pure: it is given the content and
 * the environment and returns the list, so the production build
 * (scripts/lib/launch-gate.mts), `npm run launch-check` and the admin dashboard
 * all show the same items. An empty list means ready.
 */

/** The content the check reads (src/lib/server/launch-content.ts gathers the real one). */
export interface LaunchContent {
  identity: {
    candidateName: string;
    domain: string;
    emails: Readonly<Record<string, string>>;
    phone: { display: string; e164: string };
    address: { street: string; city: string; stateCode: string; zip: string };
  };
  /** The values identity.ts shipped with (its SHIPPED_PLACEHOLDERS). */
  placeholders: { candidateName: string; street: string };
  /** The carousel's YouTube video ids. */
  videoIds: readonly string[];
  /** Every image under src/assets: its path from the project root and the sha256 of its bytes. */
  images: readonly { path: string; sha256: string }[];
}

export type LaunchEnv = Readonly<Record<string, string | undefined>>;

/**
 * The sha256 of each placeholder image the site shipped with (the portrait and
 * the two video posters). A file whose bytes still hash to one of these is a
 * placeholder wherever it sits; replacing the file (or pointing
 * src/content/media.ts at another) clears it. A hash, not a marker to remove by
 * hand: nobody has to remember to flip a flag.
 */
export const PLACEHOLDER_IMAGE_SHA256: Readonly<Record<string, string>> = {
  '16287f65c740bf62d1398070335eba4cc6fa7b26320c320fa8f0c48681909a77': 'placeholder candidate portrait',
  '41ae045c088a9b64a86fba51fe6888b058c32452c7b3f21de1fbe12e951d137a':
    'placeholder "Meet the candidate" poster',
  f859d15e008140199187ff83cd5327f599f31b7025065a1d3ab566d288a129d1: 'placeholder "One-term plan" poster',
};

/** A YouTube video id: 11 characters of [A-Za-z0-9_-]. The shipped ids are REPLACE-ME-01/02. */
const YOUTUBE_ID = /^[\w-]{11}$/;
/** Reserved documentation domains (RFC 2606 / RFC 6761): never a real mailbox or site. */
const RESERVED_HOST = /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/i;
/** North American fictional numbers 555-0100..555-0199 (NANPA), as +1AAA55501XX. */
const FICTIONAL_PHONE = /^\+1\d{3}55501\d{2}$/;
/** Cloudflare Turnstile's documented test site keys and secrets (1x/2x/3x followed by zeros). */
const TURNSTILE_TEST_KEY = /^[123]x0+[A-F]{2}$/;

const hostOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** Placeholders still in the site's content: identity, carousel videos, images. */
export function contentItems(content: LaunchContent): LaunchItem[] {
  const items: LaunchItem[] = [];
  const add = (key: string, message: string) => items.push({ key, area: 'content', message });
  const { identity, placeholders } = content;
  if (identity.candidateName === placeholders.candidateName) {
    add(
      'identity:candidate',
      `The candidate is the placeholder "${identity.candidateName}": set the name in src/content/identity.ts.`,
    );
  }
  const reserved = Object.values(identity.emails).filter((e) => RESERVED_HOST.test(hostOf(e)));
  if (RESERVED_HOST.test(identity.domain) || reserved.length > 0) {
    add(
      'identity:emails',
      `Campaign addresses use the placeholder domain ${identity.domain}${reserved.length ? ` (${reserved.join(', ')})` : ''}: set the domain in src/content/identity.ts.`,
    );
  }
  if (FICTIONAL_PHONE.test(identity.phone.e164)) {
    add(
      'identity:phone',
      `The campaign phone is the fictional number ${identity.phone.display}: set it in src/content/identity.ts.`,
    );
  }
  if (identity.address.street === placeholders.street) {
    add(
      'identity:address',
      `The committee's postal address is the placeholder "${identity.address.street}": set it in src/content/identity.ts.`,
    );
  }
  for (const id of content.videoIds) {
    if (/^REPLACE-ME/i.test(id) || !YOUTUBE_ID.test(id)) {
      add(
        `video:${id}`,
        `The carousel video "${id}" is a placeholder, not a YouTube video id: set it in src/content/home.ts (and its poster in src/content/media.ts).`,
      );
    }
  }
  for (const image of content.images) {
    const what = PLACEHOLDER_IMAGE_SHA256[image.sha256];
    if (what) {
      add(
        `image:${image.path}`,
        `${image.path} is the ${what}: replace the file with the campaign's own (or delete it if nothing uses it).`,
      );
    }
  }
  return items;
}

/** A URL's host if it is an absolute http(s) URL, else null. */
function httpUrl(value: string | undefined): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------
// Secret strength (docs/decisions/085-launch-gate.md, "Strength")

/**
 * A rough floor on a value's entropy in bits: its length times the lesser of the bits per character of the
 * character classes it uses (lower, upper, digits, other printable: 26, 26, 10, 33) and the Shannon entropy of its
 * own characters. Repetition and short alphabets score low ("aaaa…", "password1234password1234"); the documented
 * generators score far above the minimums (`openssl rand -hex 24`: ~180; `openssl rand -base64 48`: ~320). A floor
 * that refuses lazy values, not a proof of randomness.
 */
export function estimatedEntropyBits(value: string): number {
  const chars = [...value];
  if (chars.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let shannon = 0;
  for (const n of counts.values()) shannon -= (n / chars.length) * Math.log2(n / chars.length);
  const pool =
    (/[a-z]/.test(value) ? 26 : 0) +
    (/[A-Z]/.test(value) ? 26 : 0) +
    (/\d/.test(value) ? 10 : 0) +
    (/[^a-zA-Z\d]/.test(value) ? 33 : 0);
  return Math.floor(chars.length * Math.min(shannon, Math.log2(pool)));
}

/**
 * The minimums per kind of secret the campaign makes itself. Keys (HMAC keys: the session and audit key, the
 * donor key) must hold a 256-bit key's worth of text and score 128 bits; shared credentials (the HTTP Basic
 * username and password given to ActBlue) 24 characters and 96 bits. Provider-issued secrets are judged by their
 * shape instead (REQUIRED_SETTINGS).
 */
export const SECRET_MINIMUMS = {
  key: { minBytes: MIN_SESSION_SECRET_BYTES, minBits: 128, make: 'openssl rand -base64 48' },
  credential: { minBytes: 24, minBits: 96, make: 'openssl rand -hex 24' },
} as const;
export type SecretKind = keyof typeof SECRET_MINIMUMS;

/** Whether a secret of `kind` is too weak: a sentence naming the setting (never its value), or null. */
export function weakSecret(name: string, kind: SecretKind, value: string): string | null {
  const min = SECRET_MINIMUMS[kind];
  if (Buffer.byteLength(value) < min.minBytes)
    return `${name} is shorter than ${min.minBytes} bytes: set a long random value (\`${min.make}\`).`;
  if (estimatedEntropyBits(value) < min.minBits)
    return `${name} is too predictable (repeated or few distinct characters): set a random value (\`${min.make}\`).`;
  return null;
}

// ---------------------------------------------------------------------------
// The required settings: one list, held equal to docs/deploy.md's table by tests/unit/launch-check.test.ts

/** One setting a live site cannot do without (docs/deploy.md, section 2, "Needed: yes"). */
export interface RequiredSetting {
  name: string;
  /** Whether docs/deploy.md marks it **secret** (a message never prints its value). */
  secret: boolean;
  /** What it is for, in the "is not set" line. */
  what: string;
  /** The value's problem (it is set), or null when it is fine. */
  judge: (value: string, env: LaunchEnv) => string | null;
}

const realHttps = (name: string, what: string) => (value: string) => {
  const url = httpUrl(value);
  return url?.protocol === 'https:' && !RESERVED_HOST.test(url.hostname)
    ? null
    : `${name} is "${value}": set ${what} (https, a real host).`;
};
const realAddress = (name: string, what: string) => (value: string) =>
  value.includes('@') && !RESERVED_HOST.test(hostOf(value))
    ? null
    : `${name} is "${value}", not a real address: ${what}.`;
const shaped = (name: string, shape: RegExp, what: string) => (value: string) =>
  shape.test(value) ? null : `${name} does not look like ${what}.`;
const turnstileKey = (name: string) => (value: string) =>
  value === TURNSTILE_TEST_SECRET || TURNSTILE_TEST_KEY.test(value)
    ? `${name} is a Turnstile test key, which lets every bot through: set the site's own.`
    : TURNSTILE_KEY.test(value)
      ? null
      : `${name} does not look like a Turnstile key ("0x" and the rest, from the Cloudflare dashboard).`;
const textSetting = (name: TextSettingName) => (value: string) => TEXT_SETTING_CHECKS[name](value);

/** A Cloudflare Turnstile site key or secret: "0x" and at least 16 more characters. */
const TURNSTILE_KEY = /^0x[\w-]{16,}$/;
/** A SendGrid API key: "SG.", an id, ".", the secret. */
const SENDGRID_KEY = /^SG\.[\w-]{16,}\.[\w-]{16,}$/;

/** Whether a value is SendGrid's Event Webhook verification key: base64 DER of an EC public key. */
function sendGridPublicKey(value: string): string | null {
  try {
    const key = createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType === 'ec') return null;
  } catch {
    // not a key
  }
  return 'SENDGRID_WEBHOOK_PUBLIC_KEY is not the verification key SendGrid shows for the signed Event Webhook (docs/deploy.md, section 6).';
}

/**
 * Every setting docs/deploy.md marks required, in its table's order, with the judge of its value. The check
 * fails for each that is missing or fails its judge (`npm run launch-check` exits 1, a production build stops).
 */
export const REQUIRED_SETTINGS: readonly RequiredSetting[] = [
  {
    name: 'APP_ENV',
    secret: false,
    what: 'production',
    judge: (v) =>
      v === 'production'
        ? null
        : `APP_ENV is "${v}": set it to production (anything else is local mode: an outbox instead of email and texts, the test captcha).`,
  },
  {
    name: 'SITE_URL',
    secret: false,
    what: 'the public https address of the site',
    judge: realHttps('SITE_URL', 'the public https address of the site'),
  },
  {
    name: 'SESSION_SECRET',
    secret: true,
    what: `at least ${MIN_SESSION_SECRET_BYTES} random bytes`,
    judge: (v) =>
      v === DEV_SESSION_SECRET
        ? 'SESSION_SECRET is the published development secret: set a new random one.'
        : weakSecret('SESSION_SECRET', 'key', v),
  },
  {
    name: 'SENDGRID_API_KEY',
    secret: true,
    what: 'the SendGrid key that sends every email',
    judge: shaped('SENDGRID_API_KEY', SENDGRID_KEY, 'a SendGrid API key ("SG." and the rest)'),
  },
  {
    name: 'EMAIL_FROM',
    secret: false,
    what: 'the verified sender of every email',
    judge: realAddress('EMAIL_FROM', 'the verified sender of every email'),
  },
  {
    name: 'CAMPAIGN_INBOX_EMAIL',
    secret: false,
    what: 'where sign-ups and messages are emailed',
    judge: realAddress('CAMPAIGN_INBOX_EMAIL', 'where sign-ups and messages are emailed'),
  },
  {
    name: 'TWILIO_ACCOUNT_SID',
    secret: false,
    what: 'the Twilio account that sends the texts',
    judge: textSetting('TWILIO_ACCOUNT_SID'),
  },
  {
    name: 'TWILIO_AUTH_TOKEN',
    secret: true,
    what: 'the Twilio auth token (it also checks inbound webhooks)',
    judge: textSetting('TWILIO_AUTH_TOKEN'),
  },
  {
    name: 'TWILIO_MESSAGING_SERVICE_SID',
    secret: false,
    what: 'the Messaging Service that holds the campaign’s registered 10DLC number',
    judge: textSetting('TWILIO_MESSAGING_SERVICE_SID'),
  },
  {
    name: 'CAMPAIGN_VERIFY_TOKEN',
    secret: true,
    what: 'the Campaign Verify token of the campaign’s registration; text sending stays off until it is set',
    judge: textSetting('CAMPAIGN_VERIFY_TOKEN'),
  },
  {
    name: 'SENDGRID_WEBHOOK_PUBLIC_KEY',
    secret: false,
    what: 'the verification key of SendGrid’s signed Event Webhook (bounces and unsubscribes suppress addresses)',
    judge: sendGridPublicKey,
  },
  {
    name: 'TURNSTILE_SECRET_KEY',
    secret: true,
    what: 'the captcha of the public forms (Cloudflare Turnstile)',
    judge: turnstileKey('TURNSTILE_SECRET_KEY'),
  },
  {
    name: 'PUBLIC_TURNSTILE_SITE_KEY',
    secret: false,
    what: 'the captcha of the public forms (Cloudflare Turnstile)',
    judge: turnstileKey('PUBLIC_TURNSTILE_SITE_KEY'),
  },
  {
    name: 'PUBLIC_DONATION_URL',
    secret: false,
    what: 'the donation form the donate page embeds',
    judge: realHttps('PUBLIC_DONATION_URL', "the provider's form URL"),
  },
  {
    name: 'PUBLIC_DONATION_URL_ES',
    secret: false,
    what: 'the Spanish donation form /es/donate embeds',
    judge: realHttps('PUBLIC_DONATION_URL_ES', "the provider's Spanish form URL"),
  },
  {
    name: 'ACTBLUE_WEBHOOK_USERNAME',
    secret: true,
    what: 'the HTTP Basic username given to ActBlue for the donations webhook',
    judge: (v) => weakSecret('ACTBLUE_WEBHOOK_USERNAME', 'credential', v),
  },
  {
    name: 'ACTBLUE_WEBHOOK_PASSWORD',
    secret: true,
    what: 'the HTTP Basic password given to ActBlue for the donations webhook',
    judge: (v, env) =>
      v === env.ACTBLUE_WEBHOOK_USERNAME
        ? 'ACTBLUE_WEBHOOK_PASSWORD is the same as the username: make two different random values.'
        : weakSecret('ACTBLUE_WEBHOOK_PASSWORD', 'credential', v),
  },
  {
    name: 'DONOR_KEY_SECRET',
    secret: true,
    what: 'the key that counts repeat donors without storing who they are',
    judge: (v, env) =>
      v === env.SESSION_SECRET
        ? 'DONOR_KEY_SECRET is the same as SESSION_SECRET: set its own random value.'
        : weakSecret('DONOR_KEY_SECRET', 'key', v),
  },
  {
    name: 'BUILD_HOOK_URL',
    secret: true,
    what: 'the Netlify build hook the stage-rebuild job calls, without which no page follows the election stage',
    judge: (v) => {
      const url = httpUrl(v);
      const id = url?.pathname.split('/').at(-1) ?? '';
      if (url?.protocol !== 'https:' || RESERVED_HOST.test(url.hostname))
        return 'BUILD_HOOK_URL is not an https URL: set the build hook Netlify made (Build & deploy → Build hooks).';
      return /^[\w-]{16,}$/.test(id)
        ? null
        : 'BUILD_HOOK_URL does not end in a build hook id: copy the whole URL Netlify shows.';
    },
  },
];

/** Settings a live site needs (docs/deploy.md, section 2), missing, weak, or left at a development or test value. */
export function settingItems(env: LaunchEnv): LaunchItem[] {
  return REQUIRED_SETTINGS.flatMap(({ name, what, judge }) => {
    const value = env[name];
    const message = value ? judge(value, env) : `${name} is not set: ${what}.`;
    return message ? [{ key: `setting:${name}`, area: 'settings' as const, message }] : [];
  });
}

// ---------------------------------------------------------------------------
// The election calendar

/**
 * A calendar whose election is over (docs/decisions/085-launch-gate.md, "The calendar"): the polls of the round the
 * site follows (the primary, or the runoff once the admin chose one) have closed at `now`. A site launched on it
 * would only speak of the past (the seeded calendar holds the October 2025 election).
 */
export function calendarItems(calendar: ElectionCalendar, now: Date): LaunchItem[] {
  const stage = electionStage(calendar, now);
  if (!stage.pollsClosed) return [];
  return [
    {
      key: 'calendar:election-day',
      area: 'calendar',
      message: `The election calendar's Election Day (${formatEventDate(stage.dates.electionDay.date)}) is in the past: enter the coming election in the dashboard's Election tab (before the first deploy, in src/content/election-calendar.ts).`,
    },
  ];
}

/** The calendar the check reads and the moment it judges it at (tests inject the clock). */
export interface CalendarCheck {
  calendar: ElectionCalendar;
  now: Date;
}

/**
 * Everything still missing before launch: content, then settings, then (when given) the calendar. The build passes
 * no calendar: a production build after Election Day is the stage rebuild that moves the site to its results, and
 * must not be refused (docs/decisions/085-launch-gate.md).
 */
export function launchItems(content: LaunchContent, env: LaunchEnv, calendar?: CalendarCheck): LaunchItem[] {
  return [
    ...contentItems(content),
    ...settingItems(env),
    ...(calendar ? calendarItems(calendar.calendar, calendar.now) : []),
  ];
}

/**
 * Whether a build is a production build the gate refuses to finish while
 * anything is missing: Netlify's production context (CONTEXT=production), or,
 * off Netlify (no CONTEXT), APP_ENV=production. Deploy previews and branch
 * deploys (CONTEXT=deploy-preview, branch-deploy) and local builds without
 * APP_ENV=production keep working with placeholders.
 */
export function isProductionBuild(env: LaunchEnv): boolean {
  return env.CONTEXT ? env.CONTEXT === 'production' : env.APP_ENV === 'production';
}

/** The list as printed by the build and `npm run launch-check`. */
export function formatLaunchItems(items: readonly LaunchItem[]): string {
  if (items.length === 0) return 'Launch check: nothing missing.';
  return [
    `Launch check: ${items.length} thing${items.length === 1 ? '' : 's'} to replace or set before going live (docs/deploy.md):`,
    ...items.map((i) => `  - ${i.message}`),
  ].join('\n');
}
