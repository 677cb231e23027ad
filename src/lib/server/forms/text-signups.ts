import { createHash, randomBytes } from 'node:crypto';
import { IDENTITY } from '../../../content/identity.ts';
import {
  CAPTCHA_REQUIRED,
  SMS_CONSENT_TEXT,
  SMS_CONSENT_VERSION,
  type TextSignupSchema,
} from '../../schemas/forms.ts';
import { HttpError } from '../errors.ts';
import {
  ConsentEventSchema,
  StoredTextSignupSchema,
  type ConsentEvent,
  type StoredTextSignup,
} from '../../schemas/inbox.ts';
import type { z } from 'zod';
import { verifyCaptcha } from '../adapters/captcha.ts';
import { sendSms } from '../adapters/sms.ts';
import { ConflictError, hashed, key, kv, update, upsert, type KV } from '../store.ts';
import { assertPhoneAllowed } from './phone-policy.ts';
import { reserveConfirmationText, reserveForSignup, reserveFromIp } from './text-limits.ts';

/**
 * The text-message list. One record per person (`person/<id>`, id = sha256 of
 * the E.164 phone, else of the email) holds the current state; the consent
 * log (`consent/<id>/<iso time>-<random>`) is append-only and holds every
 * opt-in with the exact consent text, every STOP/START/HELP and every
 * confirmation text. See docs/decisions.md, "Consent record".
 */

export type TextSignup = z.output<typeof TextSignupSchema>;

/** The one success message (new and repeat sign-ups alike). */
export const TEXT_SIGNUP_OK = "You're signed up for text messages!";

/** Keywords that resubscribe a number that replied STOP (Twilio Advanced Opt-Out must list the same). */
export const RESUBSCRIBE_KEYWORDS = { en: 'START', es: 'COMENZAR' } as const;

/**
 * The answer to a web sign-up for a number that replied STOP: only the phone's
 * owner can undo a STOP, by texting the keyword from that phone (issue 15).
 */
export const TEXT_SIGNUP_OPTED_OUT =
  `This number asked us to stop texting it, so it can't be signed up again from the website. ` +
  `To get our texts again, reply ${RESUBSCRIBE_KEYWORDS.en} (or ${RESUBSCRIBE_KEYWORDS.es}) from that phone ` +
  `to any text you got from ${IDENTITY.smsProgramName}.`;

const signups = (): KV => kv('signups');
export const personKey = (id: string) => key('person', id);

export function personIdFor(phone: string | undefined | null, email: string | undefined | null): string {
  if (phone) return hashed(phone);
  if (email) return hashed(email);
  // Neither given (both are optional on the form): a person of their own.
  return randomBytes(16).toString('hex');
}

export function confirmationText(): string {
  return (
    `${IDENTITY.smsProgramName}: Thanks for signing up for campaign texts! Msg frequency varies. ` +
    'Msg & data rates may apply. Reply HELP for help, STOP to unsubscribe.'
  );
}

export function helpText(): string {
  return (
    `${IDENTITY.smsProgramName}: campaign updates from ${IDENTITY.committeeName}. ` +
    `Help: ${IDENTITY.emails.general} or ${IDENTITY.phone.display}. Msg frequency varies. Msg & data rates may apply. ` +
    'Reply STOP to unsubscribe.'
  );
}

export function stoppedText(): string {
  return `${IDENTITY.smsProgramName}: You're unsubscribed and will get no more texts. Reply START to resubscribe.`;
}

const pause = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random())));

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A consent log entry with every optional field empty. */
export function emptyEvent(personId: string, type: ConsentEvent['type'], at: string): ConsentEvent {
  return {
    type,
    at,
    personId,
    phone: null,
    email: null,
    firstName: null,
    consentText: null,
    consentVersion: null,
    consentTextSha256: null,
    sourcePage: null,
    ip: null,
    userAgent: null,
    messageId: null,
    inboundMessageSid: null,
    inboundBody: null,
    error: null,
    refKey: null,
  };
}

/** Appends one consent log entry (a new, time-ordered key; never rewritten). Returns its key. */
export async function appendConsentEvent(event: ConsentEvent): Promise<string> {
  const parsed = ConsentEventSchema.parse(event);
  for (let i = 0; i < 3; i++) {
    const k = key('consent', parsed.personId, `${parsed.at}-${randomBytes(6).toString('hex')}`);
    if (await signups().create(k, parsed)) return k;
  }
  throw new Error('Could not allocate a consent log key');
}

export async function getPerson(id: string): Promise<StoredTextSignup | null> {
  const r = await signups().get<unknown>(personKey(id));
  if (!r) return null;
  const p = StoredTextSignupSchema.safeParse(r.value);
  return p.success ? p.data : null;
}

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
 * A text sign-up from any public form (the JSON endpoint or a plain HTML form
 * post), with every abuse check in order (issue 15):
 *
 * 1. the phone's country is one the campaign texts (400);
 * 2. one sign-up from this IP (the platform's, `meta.ip`) reserved, and one
 *    confirmation text if the number is new to the list (429);
 * 3. the captcha verified (400 / 503). A browser form post without a token
 *    (scripts off: Turnstile cannot run) skips it and takes a slot of the
 *    no-script budget instead, per IP and site-wide per hour (429 past it);
 *    a JSON request without a token is refused (400);
 * 4. the same for this number, the site's hourly sign-ups and, for a new
 *    number, the site's daily text cap (429; the cap raises a staff alert);
 * 5. then the sign-up itself (signUpForTexts).
 *
 * `input` has passed TextSignupSchema. `now` is injectable for tests.
 */
export async function submitTextSignup(
  input: TextSignup,
  meta: RequestMeta,
  now = new Date(),
): Promise<SignupResult> {
  const phone = input.phone ?? null;
  const at = now.getTime();
  const ip = meta.ip ?? 'unknown';
  assertPhoneAllowed(phone);
  // Only a number new to the list gets a confirmation text (a repeat or an opted-out number gets none).
  const noScript = !input.captcha;
  if (noScript && !meta.formPost) throw new HttpError(400, CAPTCHA_REQUIRED);
  const texts = phone !== null && !(await getPerson(hashed(phone)));
  await reserveFromIp(ip, texts, at, noScript);
  if (input.captcha) await verifyCaptcha(input.captcha, meta.ip ?? undefined);
  await reserveForSignup(phone, texts, at, noScript);
  return signUpForTexts(input, meta, now);
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
 * Callers go through submitTextSignup, which applies the abuse limits first.
 */
export async function signUpForTexts(
  input: TextSignup,
  meta: RequestMeta,
  now = new Date(),
): Promise<SignupResult> {
  const at = now.toISOString();
  const phone = input.phone ?? null;
  const email = input.email ?? null;
  const id = personIdFor(phone, email);
  const consentText = SMS_CONSENT_TEXT;

  // 1. The request itself, append-only, before anything else.
  const optInKey = await appendConsentEvent({
    ...emptyEvent(id, 'web_opt_in', at),
    phone,
    email,
    firstName: input.firstName,
    consentText,
    consentVersion: SMS_CONSENT_VERSION,
    consentTextSha256: sha256(consentText),
    sourcePage: input.sourcePage ?? null,
    ip: meta.ip,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, 512) : null,
  });

  // 2. The person: created once (onlyIfNew). An existing one is never rewritten
  // by a web form, so a burst of identical sign-ups is one create and no writes.
  const fresh: StoredTextSignup = {
    id,
    firstName: input.firstName,
    phone,
    email,
    smsStatus: 'subscribed',
    consentAt: at,
    consentVersion: SMS_CONSENT_VERSION,
    optedOutAt: null,
    sourcePage: input.sourcePage ?? null,
    createdAt: at,
    updatedAt: at,
    confirmation: phone ? { status: 'pending', messageId: null, error: null, at } : null,
  };
  let existing: StoredTextSignup | null = null;
  for (let attempt = 0; ; attempt++) {
    if (attempt >= 10) throw new ConflictError('Too many concurrent changes. Please try again.');
    if (await signups().create(personKey(id), fresh)) break;
    existing = await getPerson(id);
    if (existing) break;
    await pause(attempt); // deleted in between, or a record that does not parse: try again
  }

  if (existing?.smsStatus === 'opted_out') {
    await appendConsentEvent({
      ...emptyEvent(id, 'web_opt_in_refused', at),
      phone,
      email,
      firstName: input.firstName,
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
  const confirmation = phone ? await sendConfirmation(id, phone, optInKey) : null;
  return { outcome: 'created', created: true, personId: id, confirmation };
}

/**
 * Texts someone on the list, unless they opted out: the consent state is read
 * fresh (strongly consistent) just before sending. Every program text goes
 * through here.
 */
export async function sendProgramText(
  phone: string,
  body: string,
): Promise<{ sent: false; reason: 'opted_out' | 'unknown' } | { sent: true; id: string }> {
  const person = await getPerson(hashed(phone));
  if (!person) return { sent: false, reason: 'unknown' };
  if (person.smsStatus !== 'subscribed') return { sent: false, reason: 'opted_out' };
  const r = await sendSms({ to: phone, body });
  return { sent: true, id: r.id };
}

async function sendConfirmation(
  id: string,
  phone: string,
  refKey: string,
): Promise<StoredTextSignup['confirmation']> {
  const at = () => new Date().toISOString();
  let confirmation: NonNullable<StoredTextSignup['confirmation']>;
  // One confirmation per number per day, counted just before sending (after the
  // sign-up is stored, so a failed attempt never blocks its own retry).
  if (!(await reserveConfirmationText(phone))) {
    confirmation = {
      status: 'skipped',
      messageId: null,
      error: 'A confirmation was already sent today',
      at: at(),
    };
    await update<StoredTextSignup>(signups(), personKey(id), (cur) => ({ ...cur, confirmation })).catch(
      (e: unknown) => console.error('[newsletter] could not record the confirmation status', e),
    );
    return confirmation;
  }
  try {
    const r = await sendProgramText(phone, confirmationText());
    if (r.sent) {
      confirmation = { status: 'sent', messageId: r.id, error: null, at: at() };
      await appendConsentEvent({
        ...emptyEvent(id, 'confirmation_sent', confirmation.at),
        phone,
        messageId: r.id,
        refKey,
      });
    } else {
      confirmation = {
        status: 'skipped',
        messageId: null,
        error: r.reason === 'opted_out' ? 'Opted out' : 'Not on the list',
        at: at(),
      };
    }
  } catch (err) {
    const error = err instanceof Error ? `${err.name}: ${err.message}` : 'SMS failed';
    console.error(`[newsletter] confirmation text failed: ${error}`);
    confirmation = { status: 'failed', messageId: null, error: error.slice(0, 300), at: at() };
    await appendConsentEvent({
      ...emptyEvent(id, 'confirmation_failed', confirmation.at),
      phone,
      error: confirmation.error,
      refKey,
    }).catch((e: unknown) => console.error('[newsletter] could not log the failed confirmation', e));
  }
  // Staff see the outcome on the person; failing to note it loses nothing (the opt-in is stored).
  await update<StoredTextSignup>(signups(), personKey(id), (cur) => ({ ...cur, confirmation })).catch(
    (e: unknown) => console.error('[newsletter] could not record the confirmation status', e),
  );
  return confirmation;
}

// ---------------------------------------------------------------------------
// Inbound texts (Twilio webhook)

export type InboundKind = 'stop' | 'start' | 'help' | 'other';

/** Twilio's own opt-out keywords (advanced opt-out answers these itself). */
const STOP_KEYWORDS = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'OPTOUT',
  'REVOKE',
  'PARAR',
  'ALTO',
]);
// Spanish: PARAR/ALTO stop, COMENZAR starts again, AYUDA asks for help (add them to Advanced Opt-Out too).
const START_KEYWORDS = new Set(['START', 'UNSTOP', 'YES', RESUBSCRIBE_KEYWORDS.es]);
const HELP_KEYWORDS = new Set(['HELP', 'INFO', 'AYUDA']);

/** Plain-language stop requests: a person writing a sentence instead of a keyword. */
const PLAIN_STOP =
  /\b(stop (texting|messaging|sending|contacting)|unsubscribe|remove me|take me off|opt me out|opt out|do not (text|message|contact)|don'?t (text|message|contact)|no more (texts|messages|text messages)|leave me alone|wrong number)\b/i;

export function classifyInbound(body: string): { kind: InboundKind; keyword: boolean } {
  const word = body
    .trim()
    .toUpperCase()
    .replace(/[^A-Z ]/g, '')
    .replace(/\s+/g, ' ');
  const compact = word.replace(/ /g, '');
  if (STOP_KEYWORDS.has(compact)) return { kind: 'stop', keyword: true };
  if (START_KEYWORDS.has(compact)) return { kind: 'start', keyword: true };
  if (HELP_KEYWORDS.has(compact)) return { kind: 'help', keyword: true };
  if (PLAIN_STOP.test(body)) return { kind: 'stop', keyword: false };
  return { kind: 'other', keyword: false };
}

export interface InboundText {
  messageSid: string;
  from: string;
  body: string;
}

/**
 * Applies one inbound text to the consent log and the person's state.
 * Returns the reply to send (null: none; Twilio's advanced opt-out answers
 * STOP and START keywords itself).
 */
export async function applyInboundText(msg: InboundText, now = new Date()): Promise<string | null> {
  const at = now.toISOString();
  const { kind, keyword } = classifyInbound(msg.body);
  if (kind === 'other') return null;
  const id = hashed(msg.from);
  const base = {
    ...emptyEvent(id, kind, at),
    phone: msg.from,
    inboundMessageSid: msg.messageSid,
    inboundBody: msg.body.slice(0, 1600),
  };
  await appendConsentEvent(base);
  if (kind === 'stop') {
    await upsert<unknown>(signups(), personKey(id), (raw) => {
      const cur = raw ? StoredTextSignupSchema.parse(raw) : null;
      const stub: StoredTextSignup = {
        id,
        firstName: '',
        phone: msg.from,
        email: null,
        smsStatus: 'opted_out',
        consentAt: null,
        consentVersion: null,
        optedOutAt: at,
        sourcePage: null,
        createdAt: at,
        updatedAt: at,
        confirmation: null,
      };
      return cur ? { ...cur, smsStatus: 'opted_out', optedOutAt: at, updatedAt: at } : stub;
    });
    // A keyword STOP is confirmed by Twilio itself; a sentence is not, so we confirm it.
    return keyword ? null : stoppedText();
  }
  if (kind === 'start') {
    // START re-subscribes someone who consented before; it never creates a subscriber.
    await update<StoredTextSignup>(signups(), personKey(id), (cur) => ({
      ...cur,
      smsStatus: 'subscribed',
      updatedAt: at,
    }));
    return null;
  }
  return helpText();
}
