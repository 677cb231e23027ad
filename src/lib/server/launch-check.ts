import type { LaunchItem } from '../schemas/launch-check.ts';
import { DEV_SESSION_SECRET, MIN_SESSION_SECRET_BYTES, TURNSTILE_TEST_SECRET } from './env.ts';

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

/** Settings a live site needs (docs/deploy.md, section 2), missing or left at a development or test value. */
export function settingItems(env: LaunchEnv): LaunchItem[] {
  const items: LaunchItem[] = [];
  const add = (name: string, message: string) =>
    items.push({ key: `setting:${name}`, area: 'settings', message });
  const missing = (name: string, what: string) => {
    if (!env[name]) add(name, `${name} is not set: ${what}.`);
  };

  if (env.APP_ENV !== 'production') {
    add(
      'APP_ENV',
      `APP_ENV is ${env.APP_ENV ? `"${env.APP_ENV}"` : 'not set'}: set it to production (anything else is local mode: an outbox instead of email and texts, the test captcha).`,
    );
  }

  const site = httpUrl(env.SITE_URL);
  if (!env.SITE_URL) add('SITE_URL', 'SITE_URL is not set: the public https address of the site.');
  else if (site?.protocol !== 'https:' || RESERVED_HOST.test(site.hostname)) {
    add('SITE_URL', `SITE_URL is "${env.SITE_URL}": set the public https address of the site.`);
  }

  const secret = env.SESSION_SECRET;
  if (!secret)
    add('SESSION_SECRET', `SESSION_SECRET is not set: at least ${MIN_SESSION_SECRET_BYTES} random bytes.`);
  else if (secret === DEV_SESSION_SECRET) {
    add('SESSION_SECRET', 'SESSION_SECRET is the published development secret: set a new random one.');
  } else if (Buffer.byteLength(secret) < MIN_SESSION_SECRET_BYTES) {
    add('SESSION_SECRET', `SESSION_SECRET is shorter than ${MIN_SESSION_SECRET_BYTES} bytes.`);
  }

  // Captcha (Cloudflare Turnstile): both halves, neither a documented test key.
  for (const name of ['TURNSTILE_SECRET_KEY', 'PUBLIC_TURNSTILE_SITE_KEY']) {
    const value = env[name];
    if (!value) add(name, `${name} is not set: the captcha of the public forms (Cloudflare Turnstile).`);
    else if (value === TURNSTILE_TEST_SECRET || TURNSTILE_TEST_KEY.test(value)) {
      add(name, `${name} is a Turnstile test key, which lets every bot through: set the site's own.`);
    }
  }

  // Texts (Twilio): an account, its token and a sender.
  missing('TWILIO_ACCOUNT_SID', 'the Twilio account that sends the texts');
  missing('TWILIO_AUTH_TOKEN', 'the Twilio auth token (it also checks inbound webhooks)');
  if (!env.TWILIO_MESSAGING_SERVICE_SID && !env.TWILIO_FROM_NUMBER) {
    add(
      'TWILIO_MESSAGING_SERVICE_SID',
      'TWILIO_MESSAGING_SERVICE_SID (or TWILIO_FROM_NUMBER) is not set: the sender of the texts.',
    );
  }

  // Email (SendGrid): a key, a verified sender and the campaign's inbox.
  missing('SENDGRID_API_KEY', 'the SendGrid key that sends every email');
  for (const name of ['EMAIL_FROM', 'CAMPAIGN_INBOX_EMAIL']) {
    const value = env[name];
    const what =
      name === 'EMAIL_FROM'
        ? 'the verified sender of every email'
        : 'where sign-ups and messages are emailed';
    if (!value) add(name, `${name} is not set: ${what}.`);
    else if (!value.includes('@') || RESERVED_HOST.test(hostOf(value))) {
      add(name, `${name} is "${value}", not a real address: ${what}.`);
    }
  }

  // Donations: the form to embed, the ActBlue webhook's credentials and the donor-key secret.
  const donation = httpUrl(env.PUBLIC_DONATION_URL);
  if (!env.PUBLIC_DONATION_URL) missing('PUBLIC_DONATION_URL', 'the donation form the donate page embeds');
  else if (donation?.protocol !== 'https:') {
    add(
      'PUBLIC_DONATION_URL',
      `PUBLIC_DONATION_URL is "${env.PUBLIC_DONATION_URL}": set the provider's https form URL.`,
    );
  }
  missing('ACTBLUE_WEBHOOK_USERNAME', 'the HTTP Basic username given to ActBlue for the donations webhook');
  missing('ACTBLUE_WEBHOOK_PASSWORD', 'the HTTP Basic password given to ActBlue for the donations webhook');
  missing('DONOR_KEY_SECRET', 'the key that counts repeat donors without storing who they are');
  return items;
}

/** Everything still missing before launch: content first, then settings. */
export function launchItems(content: LaunchContent, env: LaunchEnv): LaunchItem[] {
  return [...contentItems(content), ...settingItems(env)];
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
