import { createHmac, randomBytes } from 'node:crypto';
import type { Lang } from '../../lang.ts';
import { sendEmail } from '../adapters/email.ts';
import { reserveAttempt, reserveClientAttempt, type Limit } from '../auth/rate-limit.ts';
import type { Defer } from '../auth/recovery.ts';
import { derivedKey } from '../derived-keys.ts';
import { env } from '../env.ts';
import { key } from '../storage/keys.ts';
import { lookupKey, normalEmail } from '../people/keys.ts';
import { getPerson, people } from '../people/person.ts';
import { SUPPORTER_COPY } from '../../../content/supporter-page.ts';

/**
 * The sign-in link by email (docs/decisions/182-supporter-page.md). The request answers the same whether or not
 * the campaign knows the address, after the same work: validate, reserve the two limits; the look-up, the token
 * and the email run after the response (`defer`, Netlify's waitUntil), as the staff forgot-password does. The
 * token is stored only as an HMAC under a key derived for this purpose, works once and for 15 minutes.
 */
export const SIGNIN_TTL_MS = 15 * 60 * 1000;
export const SIGNIN_LIMITS = {
  /** Per client network, across addresses. */
  network: { max: 10, windowSeconds: 60 * 60 },
  /** Per recipient address: what a stranger can make her inbox receive. */
  address: { max: 3, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Limit>;

interface SigninRecord {
  personId: string;
  expiresAt: string;
  usedAt?: string;
}

const tokenHash = (token: string) =>
  createHmac('sha256', derivedKey('supporter sign-in v1')).update(token).digest('hex');
export const signinKey = (token: string) => key('signin', tokenHash(token));
export const SIGNIN_PREFIX = 'signin/';

/** The one answer, for every address. */
export const linkAnswer = (lang: Lang) => SUPPORTER_COPY[lang].linkSent;

export async function requestSigninLink(
  email: string,
  lang: Lang,
  ip: string,
  now = new Date(),
  defer?: Defer,
): Promise<string> {
  // The email the link goes to (its own limit, per recipient; the network's is the client's).
  const recipient = normalEmail(email)!;
  await reserveClientAttempt('supporter-link-ip', ip, SIGNIN_LIMITS.network, { now: now.getTime() });
  await reserveAttempt('supporter-link-recipient', recipient, SIGNIN_LIMITS.address, { now: now.getTime() });
  const work = issueLink(recipient, lang, now).catch((err: unknown) =>
    console.error('[my-link] could not issue a sign-in link:', (err as Error).message),
  );
  if (defer) defer(work);
  else await work;
  return linkAnswer(lang);
}

/** The person an address leads to (the root of a merge), or null: never created from a typed address. */
export async function personIdForEmail(address: string): Promise<string | null> {
  const found = await people().get<{ id?: string }>(lookupKey('email', address));
  const id = found?.value.id;
  if (!id) return null;
  const p = await getPerson(id);
  if (!p) return null;
  return p.value.mergedInto ?? p.value.id;
}

async function issueLink(address: string, lang: Lang, now: Date): Promise<void> {
  const personId = await personIdForEmail(address);
  if (!personId) return;
  const token = randomBytes(32).toString('base64url');
  await people().create(signinKey(token), {
    personId,
    expiresAt: new Date(now.getTime() + SIGNIN_TTL_MS).toISOString(),
  } satisfies SigninRecord);
  const link = new URL(lang === 'es' ? '/es/my/signin' : '/my/signin', env().SITE_URL);
  link.searchParams.set('token', token);
  const copy = SUPPORTER_COPY[lang];
  await sendEmail({ to: address, subject: copy.emailSubject, text: copy.emailBody(link.toString()) });
}

/** Redeems a token once: the person's id, or null (unknown, used, expired, or the person is gone). */
export async function redeemSigninToken(token: string, now = new Date()): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const k = signinKey(token);
  const rec = await people().get<SigninRecord>(k);
  if (!rec || rec.value.usedAt) return null;
  // Single use: only the request whose compare-and-set marks it used goes on; then it is deleted.
  const won = await people().replace(k, { ...rec.value, usedAt: now.toISOString() }, rec.etag);
  if (!won) return null;
  await people().delete(k);
  if (Date.parse(rec.value.expiresAt) <= now.getTime()) return null;
  const p = await getPerson(rec.value.personId);
  return p ? (p.value.mergedInto ?? p.value.id) : null;
}
