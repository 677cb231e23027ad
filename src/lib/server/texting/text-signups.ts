import { countActivity, sourceFromPage } from '../activity/counts.ts';
import { createHash, randomBytes } from 'node:crypto';
import { RESUBSCRIBE_KEYWORDS } from '../../../content/consent.ts';
import { formCopy } from '../../../content/forms.ts';
import { confirmationText } from '../../../content/sms-program.ts';
import { SMS_CONSENT } from '../../../content/consent.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import type { TextSignupSchema } from '../../schemas/forms.ts';
import type { ConsentEvent, StoredTextSignup } from '../../schemas/inbox.ts';
import type { z } from 'zod';
import { ConflictError, update } from '../storage/compare-and-set.ts';
import { hashed } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import { sendGuardedText, TEXT_REFUSALS, type TextRefusal } from './text-guard.ts';
import { laterStamp } from '../content/stamps.ts';
import { noteSummary, summarize } from '../inbox/summary-shapes.ts';
import { appendConsentEvent, emptyEvent, getPerson, personKey } from './text-list.ts';
import { reserveForSignup, reserveFromIp } from './text-limits.ts';
import { BUSY_MESSAGE } from '../storage/compare-and-set.ts';
import { linkPerson } from '../people/link.ts';

/**
 * The text-message list. One record per person (`person/<id>`, id = sha256 of
 * the E.164 phone, else of the email) holds the current state; the consent
 * log (`consent/<id>/<iso time>-<random>`) is append-only and holds every
 * opt-in with the exact consent text, every STOP/START/HELP and every
 * confirmation text. See docs/decisions/151-texting.md.
 */

export type TextSignup = z.output<typeof TextSignupSchema>;

/** The one success message (new and repeat sign-ups alike). */
export const TEXT_SIGNUP_OK = "You're signed up for text messages!";

/** Keywords that resubscribe a number that replied STOP (Twilio Advanced Opt-Out must list the same). */
export { RESUBSCRIBE_KEYWORDS };

/**
 * The answer to a web sign-up for a number that replied STOP: only the phone's
 * owner can undo a STOP, by texting the keyword from that phone (docs/decisions/151-texting.md).
 * The same words as the island's panel and the no-JavaScript outcome page.
 */
export const TEXT_SIGNUP_OPTED_OUT = formCopy['text-signup'].outcomes.opted_out.text;

const signups = (): KV => kv('signups');
export { appendConsentEvent, emptyEvent, getPerson, personKey };

export function personIdFor(phone: string | undefined | null, email: string | undefined | null): string {
  if (phone) return hashed(phone);
  if (email) return hashed(email);
  // Neither given (both are optional on the form): a person of their own.
  return randomBytes(16).toString('hex');
}

const pause = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random())));

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  /** A browser form post (form-post.ts), which is how a page with scripts off sends. */
  formPost?: boolean;
}

export interface SignupResult {
  /**
   * created: a new person on the list (201); repeat: already subscribed, nothing
   * changed (200); opted_out: the number replied STOP, the request is logged and
   * refused, nothing is sent (200 with TEXT_SIGNUP_OPTED_OUT).
   */
  outcome: 'created' | 'repeat' | 'opted_out';
  created: boolean;
  personId: string;
  /** What happened to the confirmation text. */
  confirmation: StoredTextSignup['confirmation'];
}

/**
 * The text sign-up's own counters (docs/decisions/151-texting.md), in the steps every
 * public form goes through (src/lib/server/public-forms/accept.ts: the schema, the phone's country and type, then
 * these, the captcha between them, then signUpForTexts):
 *
 * - `perAddress`, before the captcha: one sign-up from this IP (the platform's, `meta.ip`), one confirmation text
 *   if the number is new to the list, and, for a browser form post without a token (scripts off: Turnstile cannot
 *   run, the captcha is skipped), a slot of the no-script budget (429);
 * - `afterCaptcha`: the same for this number, the site's hourly sign-ups and, for a new number, the site's daily
 *   text cap, and the site's no-script budget (429; the cap raises a staff alert), so a bot cannot spend a
 *   stranger's allowance.
 *
 * `input` has passed TextSignupSchema. `now` is injectable for tests.
 */
export async function textSignupLimits(
  input: TextSignup,
  meta: RequestMeta,
  now = new Date(),
): Promise<{ perAddress(): Promise<void>; afterCaptcha(): Promise<void> }> {
  const phone = input.phone ?? null;
  const at = now.getTime();
  const ip = meta.ip ?? 'unknown';
  const noScript = !input.captcha && meta.formPost === true;
  // Only a number new to the list gets a confirmation text (a repeat or an opted-out number gets none).
  const texts = phone !== null && !(await getPerson(hashed(phone)));
  return {
    perAddress: () => reserveFromIp(ip, texts, at, noScript),
    afterCaptcha: () => reserveForSignup(phone, texts, at, noScript),
  };
}

/**
 * Records a web opt-in (the request itself goes to the append-only consent log
 * first, whatever happens next), then:
 * - a new person: stored subscribed, texted one confirmation;
 * - a subscribed person: nothing changes (a web form never rewrites a stored
 *   person; the new details are in the log entry beside it), nothing is sent;
 * - an opted-out person: refused. A `web_opt_in_refused` entry points at the
 *   request, the number stays opted out and is not texted; only an inbound
 *   START from the phone resubscribes it.
 * A failed text is recorded on the person for staff and never undoes the sign-up.
 * The endpoint reaches it through the steps of every public form, which apply the limits first.
 */
export async function signUpForTexts(
  input: TextSignup,
  meta: RequestMeta,
  now = new Date(),
): Promise<SignupResult> {
  const at = now.toISOString();
  const phone = input.phone ?? null;
  const email = input.email ?? null;
  const { id, optIn, person: fresh } = textSignupRecords(input, meta, now);
  const lang = fresh.lang;

  // 1. The request itself, append-only, before anything else.
  const optInKey = await appendConsentEvent(optIn);

  // 2. The person: created once (onlyIfNew). An existing one is never rewritten
  // by a web form, so a burst of identical sign-ups is one create and no writes.
  let existing: StoredTextSignup | null = null;
  for (let attempt = 0; ; attempt++) {
    if (attempt >= 10) throw new ConflictError(BUSY_MESSAGE);
    if (await signups().create(personKey(id), fresh)) {
      await noteSummary('text-signups', summarize['text-signups'](fresh, personKey(id)));
      await countActivity({
        kind: 'signup.text',
        id,
        at: fresh.createdAt,
        source: sourceFromPage(fresh.sourcePage),
      });
      await countActivity({ kind: 'text.optin', id, at: fresh.createdAt });
      break;
    }
    existing = await getPerson(id);
    if (existing) break;
    await pause(attempt); // deleted in between, or a record that does not parse: try again
  }

  if (!existing) {
    const name = input.firstName;
    await linkPerson({
      source: 'text_signup',
      store: 'signups',
      key: personKey(id),
      email,
      phone,
      name,
      lang,
      at: now,
    });
  }
  if (existing?.smsStatus === 'opted_out') {
    await appendConsentEvent({
      ...emptyEvent(id, 'web_opt_in_refused', at),
      phone,
      email,
      firstName: input.firstName,
      lang,
      sourcePage: input.sourcePage ?? null,
      ip: meta.ip,
      userAgent: meta.userAgent ? meta.userAgent.slice(0, 512) : null,
      error: 'The number replied STOP; only an inbound START from the phone resubscribes it',
      refKey: optInKey,
    });
    return { outcome: 'opted_out', created: false, personId: id, confirmation: null };
  }
  if (existing) return { outcome: 'repeat', created: false, personId: id, confirmation: null };

  // 3. One confirmation per new opt-in.
  const confirmation = phone ? await sendConfirmation(id, phone, optInKey, lang) : null;
  return { outcome: 'created', created: true, personId: id, confirmation };
}

/**
 * What a web opt-in writes: its consent log entry (the exact wording the person saw, in
 * their form's language) and the person it creates if the number is new to the list,
 * confirmation pending (the scale seed builds the same).
 */
export function textSignupRecords(
  input: TextSignup,
  meta: RequestMeta,
  now: Date,
): { id: string; optIn: ConsentEvent; person: StoredTextSignup } {
  const at = now.toISOString();
  const phone = input.phone ?? null;
  const email = input.email ?? null;
  const id = personIdFor(phone, email);
  // The wording the person saw: the one of their form's language (docs/decisions/166-spanish.md).
  const lang = input.lang ?? DEFAULT_LANG;
  const { text: consentText, version: consentVersion } = SMS_CONSENT[lang];
  return {
    id,
    optIn: {
      ...emptyEvent(id, 'web_opt_in', at),
      phone,
      email,
      firstName: input.firstName,
      consentText,
      consentVersion,
      consentTextSha256: sha256(consentText),
      lang,
      sourcePage: input.sourcePage ?? null,
      ip: meta.ip,
      userAgent: meta.userAgent ? meta.userAgent.slice(0, 512) : null,
    },
    person: {
      id,
      firstName: input.firstName,
      phone,
      email,
      smsStatus: 'subscribed',
      consentAt: at,
      consentVersion,
      lang,
      optedOutAt: null,
      sourcePage: input.sourcePage ?? null,
      createdAt: at,
      updatedAt: at,
      confirmation: phone ? { status: 'pending', messageId: null, error: null, at } : null,
    },
  };
}

/**
 * Texts someone on the list, through the text guard (src/lib/server/texting/text-guard.ts:
 * number, consent, STOP read fresh, per-number and daily caps). `dailySlotTaken`: the
 * sign-up already took this text's slot of the daily cap at the door.
 */
export async function sendProgramText(
  phone: string,
  body: string,
  options: { dailySlotTaken?: boolean; lang?: Lang } = {},
): Promise<
  { sent: false; reason: 'unknown' | Exclude<TextRefusal, 'no_consent'> } | { sent: true; id: string }
> {
  const r = await sendGuardedText({
    to: phone,
    body,
    lang: options.lang ?? DEFAULT_LANG,
    consent: { purpose: 'signup_confirmation' },
    dailySlotTaken: options.dailySlotTaken ?? false,
  });
  if (r.sent) return r;
  return { sent: false, reason: r.refusal === 'no_consent' ? 'unknown' : r.refusal };
}

/** What a skipped confirmation says on the person's record, for staff. */
const SKIPPED: Record<'unknown' | Exclude<TextRefusal, 'no_consent'>, string> = {
  ...TEXT_REFUSALS,
  unknown: 'Not on the list',
  number_limit: 'A confirmation was already sent today',
};

async function sendConfirmation(
  id: string,
  phone: string,
  refKey: string,
  lang: Lang,
): Promise<StoredTextSignup['confirmation']> {
  const at = () => new Date().toISOString();
  let confirmation: NonNullable<StoredTextSignup['confirmation']>;
  try {
    // One per number per day, counted by the guard just before sending (after the
    // sign-up is stored, so a failed attempt never blocks its own retry).
    const r = await sendProgramText(phone, confirmationText(lang), { dailySlotTaken: true, lang });
    if (r.sent) {
      confirmation = { status: 'sent', messageId: r.id, error: null, at: at() };
      await appendConsentEvent({
        ...emptyEvent(id, 'confirmation_sent', confirmation.at),
        phone,
        lang,
        messageId: r.id,
        refKey,
      });
    } else {
      confirmation = { status: 'skipped', messageId: null, error: SKIPPED[r.reason], at: at() };
    }
  } catch (err) {
    const error = err instanceof Error ? `${err.name}: ${err.message}` : 'SMS failed';
    console.error(`[text-signup] confirmation text failed: ${error}`);
    confirmation = { status: 'failed', messageId: null, error: error.slice(0, 300), at: at() };
    await appendConsentEvent({
      ...emptyEvent(id, 'confirmation_failed', confirmation.at),
      phone,
      error: confirmation.error,
      refKey,
    }).catch((e: unknown) => console.error('[text-signup] could not log the failed confirmation', e));
  }
  // Staff see the outcome on the person; failing to note it loses nothing (the opt-in is stored). Every change
  // moves updatedAt on, which versions the person's summary in the Inbox index.
  const next = await update<StoredTextSignup>(signups(), personKey(id), (cur) => ({
    ...cur,
    confirmation,
    updatedAt: laterStamp(new Date(), cur.updatedAt),
  })).catch((e: unknown) => {
    console.error('[text-signup] could not record the confirmation status', e);
    return null;
  });
  if (next) await noteSummary('text-signups', summarize['text-signups'](next, personKey(id)));
  return confirmation;
}
