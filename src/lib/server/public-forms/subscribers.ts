import { countActivity, sourceFromPage } from '../activity/counts.ts';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { EMAIL_CONSENT } from '../../../content/consent.ts';
import { copyFor } from '../../../content/copy.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { NEWSLETTER_LINK_INVALID, type EmailSubscriptionSchema } from '../../schemas/forms.ts';
import { StoredSubscriberSchema, type StoredSubscriber } from '../../schemas/inbox.ts';
import { NEWSLETTER_CONFIRM } from '../../schemas/public-forms.ts';
import { EmailSendError, sendEmail } from '../adapters/email.ts';
import { env } from '../env.ts';
import { suppressionByHash } from '../people/suppressions.ts';
import { HttpError, UNAVAILABLE_MESSAGE } from '../errors.ts';
import { update } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { noteSummary, summarize } from '../inbox/summary-shapes.ts';
import type { RequestMeta } from '../texting/text-signups.ts';
import { linkPerson } from '../people/link.ts';

/**
 * The blog's newsletter box, with double opt-in
 * (docs/decisions/167-email-and-newsletter.md):
 *
 * - one record per address (normalised by the schema: trimmed, lowercased),
 *   created `pending` with onlyIfNew, so a repeat or 50 concurrent identical
 *   subscriptions are one record, kept with its time, page and the consent
 *   wording the box showed (src/content/consent.ts);
 * - a confirmation email in the box's language with a link to
 *   /newsletter/confirm (or /es/newsletter/confirm), built from SITE_URL;
 *   the link's token is 256 CSPRNG bits, stored only as its sha256
 *   (`confirm/<hash>`, pointing at the record), and expires after
 *   NEWSLETTER_CONFIRM.days;
 * - the address becomes `subscribed` once, under compare-and-set, when the
 *   person presses Confirm on that page; a second use answers "already confirmed";
 * - every post is answered the same (202, "check your inbox"), whether the
 *   address is new, pending or subscribed, and the box causes at most
 *   NEWSLETTER_CONFIRM.maxEmails emails to one address in NEWSLETTER_CONFIRM.days,
 *   reserved on the record (compare-and-set) before each is sent.
 */
export type EmailSubscription = z.output<typeof EmailSubscriptionSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;
export const CONFIRM_TTL_MS = NEWSLETTER_CONFIRM.days * DAY_MS;

/** The box's answer to every accepted post (the island's toast title; the outcome page says the same). */
export const SUBSCRIBE_PENDING = copyFor('en').forms.formCopy.newsletter.outcomes.sent;
const confirmCopy = copyFor('en').forms.formCopy['newsletter-confirm'].outcomes;

export const subscriberKey = (email: string) => key('subscriber', hashed(email));
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const confirmKey = (token: string) => key('confirm', tokenHash(token));

/** A confirmation link's stored half: which record it confirms and until when. */
const ConfirmTokenSchema = z.object({
  subscriberId: z.string().regex(/^[a-f0-9]{64}$/),
  expiresAt: z.string(),
  createdAt: z.string(),
});
type ConfirmToken = z.infer<typeof ConfirmTokenSchema>;

/** The confirmation page in a language (not a translated page of lang-paths: the language is the email's). */
export function confirmPagePath(lang: Lang): string {
  return `${lang === DEFAULT_LANG ? '' : `/${lang}`}/newsletter/confirm`;
}

/** The link of a confirmation email: SITE_URL, never the Host header of the post. */
export function confirmUrl(token: string, lang: Lang): string {
  const u = new URL(confirmPagePath(lang), env().SITE_URL);
  u.searchParams.set('token', token);
  return u.href;
}

type Mail = 'confirm' | 'already' | null;

/** Aborts a compare-and-set change without writing. */
class NoWrite extends Error {
  readonly reason: 'spent' | 'already';
  constructor(reason: 'spent' | 'already') {
    super(`no write: ${reason}`);
    this.name = 'NoWrite';
    this.reason = reason;
  }
}

/**
 * Takes one of the address's email slots on its record, or none when
 * NEWSLETTER_CONFIRM.maxEmails were sent within the window: which email, if any.
 */
async function reserveEmail(k: string, now: Date): Promise<Mail> {
  let mail: Mail = null;
  try {
    const next = await update<unknown>(kv('subscribers'), k, (cur) => {
      const s = StoredSubscriberSchema.parse(cur);
      const recent = s.emailsSent.filter((t) => now.getTime() - Date.parse(t) < CONFIRM_TTL_MS);
      if (recent.length >= NEWSLETTER_CONFIRM.maxEmails) throw new NoWrite('spent');
      mail = s.status === 'subscribed' ? 'already' : 'confirm';
      return { ...s, emailsSent: [...recent, now.toISOString()] } satisfies StoredSubscriber;
    });
    return next === null ? null : mail;
  } catch (err) {
    if (err instanceof NoWrite) return null;
    throw err;
  }
}

/**
 * A newsletter box post that passed the steps of every public form (accept.ts: the schema, this IP's posts,
 * the captcha): the pending record and at most one email. Answers which email was sent (for the tests and the log).
 */
export async function subscribeEmail(
  input: EmailSubscription,
  meta: RequestMeta,
  now = new Date(),
): Promise<{ created: boolean; mail: Mail }> {
  const lang = input.lang ?? DEFAULT_LANG;
  const { key: k, record } = subscriberRecord(input, meta, now);
  const created = await kv('subscribers').create(k, record);
  if (created) {
    await noteSummary('email-subscribers', summarize['email-subscribers'](record, k));
    await linkPerson({
      source: 'newsletter',
      store: 'subscribers',
      key: k,
      email: input.email,
      lang,
      at: now,
    });
    await countActivity({
      kind: 'signup.newsletter',
      id: record.id,
      at: record.createdAt,
      source: sourceFromPage(record.sourcePage),
    });
  }
  const mail: Mail = created ? 'confirm' : await reserveEmail(k, now);
  if (mail) await mailSubscriber(input.email, record.id, mail, lang, now);
  return { created, mail };
}

/** The pending record a newsletter box post creates for a new address, under its key (the scale seed builds the same). */
export function subscriberRecord(
  input: EmailSubscription,
  meta: RequestMeta,
  now: Date,
): { key: string; record: StoredSubscriber } {
  const lang = input.lang ?? DEFAULT_LANG;
  const record = StoredSubscriberSchema.parse({
    id: hashed(input.email),
    email: input.email,
    sourcePage: input.sourcePage ?? null,
    consentText: EMAIL_CONSENT[lang].text,
    consentVersion: EMAIL_CONSENT[lang].version,
    lang,
    createdAt: now.toISOString(),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    status: 'pending',
    emailsSent: [now.toISOString()],
  } satisfies z.input<typeof StoredSubscriberSchema>);
  return { key: subscriberKey(input.email), record };
}

/** A pending record as the Confirm press leaves it (the scale seed confirms its addresses the same way). */
export function confirmedSubscriber(s: StoredSubscriber, meta: RequestMeta, now: Date): StoredSubscriber {
  return {
    ...s,
    status: 'subscribed',
    confirmedAt: now.toISOString(),
    confirmIp: meta.ip,
    confirmUserAgent: meta.userAgent?.slice(0, 512) ?? null,
  };
}

async function mailSubscriber(to: string, id: string, mail: 'confirm' | 'already', lang: Lang, now: Date) {
  const words = copyFor(lang).forms.newsletterEmails;
  let message: { subject: string; text: string };
  if (mail === 'confirm') {
    const token = randomBytes(32).toString('base64url');
    // The link must work by the time the email arrives: the token first.
    await kv('subscribers').create(confirmKey(token), {
      subscriberId: id,
      expiresAt: new Date(now.getTime() + CONFIRM_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    } satisfies ConfirmToken);
    message = { subject: words.confirm.subject, text: words.confirm.text(confirmUrl(token, lang)) };
  } else {
    message = words.already;
  }
  try {
    await sendEmail({ to, ...message });
  } catch (err) {
    if (!(err instanceof EmailSendError)) throw err;
    // The address stays pending and the slot stays spent: a retry sends again, within the bound.
    console.error(`[subscribers] confirmation email failed: ${err.message}`);
    throw new HttpError(503, UNAVAILABLE_MESSAGE, {}, { 'Retry-After': '30' });
  }
}

export type ConfirmOutcome = 'confirmed' | 'already_confirmed';

/** The answer to each confirmation outcome (the outcome pages say the same, in the page's language). */
export const CONFIRM_MESSAGES: Record<ConfirmOutcome, string> = {
  confirmed: confirmCopy.sent.text,
  already_confirmed: confirmCopy.already_confirmed?.text ?? confirmCopy.sent.text,
};

/**
 * The Confirm button: flips a pending address to `subscribed` exactly once
 * (compare-and-set on its record, so concurrent presses confirm once and the
 * others answer "already confirmed"). An unknown token, or an expired one for
 * an address still pending, is a 400 with one message; nothing is written.
 */
export async function confirmSubscription(
  token: string,
  meta: RequestMeta,
  now = new Date(),
): Promise<ConfirmOutcome> {
  const found = await kv('subscribers').get(confirmKey(token));
  const parsed = found ? ConfirmTokenSchema.safeParse(found.value) : null;
  if (!parsed?.success) throw new HttpError(400, NEWSLETTER_LINK_INVALID);
  const expired = Date.parse(parsed.data.expiresAt) <= now.getTime();
  const k = key('subscriber', parsed.data.subscriberId);
  try {
    const next = await update<StoredSubscriber>(kv('subscribers'), k, (cur) => {
      const s = StoredSubscriberSchema.parse(cur);
      if (s.status === 'subscribed') throw new NoWrite('already');
      if (expired) throw new HttpError(400, NEWSLETTER_LINK_INVALID);
      return confirmedSubscriber(s, meta, now);
    });
    if (next === null) throw new HttpError(400, NEWSLETTER_LINK_INVALID);
    // The ledger is never cleared by a form: an address suppressed before it confirms is listed as such (136).
    const suppressed = await suppressionByHash(parsed.data.subscriberId);
    await noteSummary('email-subscribers', summarize['email-subscribers'](next, k, suppressed));
    await countActivity({ kind: 'email.optin', id: next.id, at: next.confirmedAt ?? now.toISOString() });
    return 'confirmed';
  } catch (err) {
    if (err instanceof NoWrite) return 'already_confirmed';
    throw err;
  }
}
