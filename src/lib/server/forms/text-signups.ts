import { createHash, randomBytes } from 'node:crypto';
import { RESUBSCRIBE_KEYWORDS } from '../../../content/consent.ts';
import { formCopy } from '../../../content/forms.ts';
import { IDENTITY } from '../../../content/identity.ts';
import { SMS_CONSENT } from '../../../content/consent.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { CAPTCHA_REQUIRED, type TextSignupSchema } from '../../schemas/forms.ts';
import { HttpError } from '../errors.ts';
import type { ConsentEvent, StoredTextSignup } from '../../schemas/inbox.ts';
import type { z } from 'zod';
import { verifyCaptcha } from '../adapters/captcha.ts';
import { sendGuardedText, TEXT_REFUSALS, type TextRefusal } from '../messaging/text-guard.ts';
import { ConflictError, hashed, kv, update, type KV } from '../store.ts';
import { laterStamp } from '../content/stamps.ts';
import { noteSummary, summarize } from '../inbox/summary-shapes.ts';
import { assertPhoneAllowed } from './phone-policy.ts';
import { appendConsentEvent, emptyEvent, getPerson, markOptedOut, personKey } from './text-list.ts';
import { reserveForSignup, reserveFromIp } from './text-limits.ts';

/**
 * The text-message list. One record per person (`person/<id>`, id = sha256 of
 * the E.164 phone, else of the email) holds the current state; the consent
 * log (`consent/<id>/<iso time>-<random>`) is append-only and holds every
 * opt-in with the exact consent text, every STOP/START/HELP and every
 * confirmation text. See docs/decisions/010-forms-consent-record-design-text-message.md.
 */

export type TextSignup = z.output<typeof TextSignupSchema>;

/** The one success message (new and repeat sign-ups alike). */
export const TEXT_SIGNUP_OK = "You're signed up for text messages!";

/** Keywords that resubscribe a number that replied STOP (Twilio Advanced Opt-Out must list the same). */
export { RESUBSCRIBE_KEYWORDS };

/**
 * The answer to a web sign-up for a number that replied STOP: only the phone's
 * owner can undo a STOP, by texting the keyword from that phone (docs/decisions/039-text-sign-up-only-the-owner-undoes-a-stop.md).
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

/*
 * The program's own texts, per language (docs/decisions/056-spanish-texts-forms-and-the-inbox.md): a sign-up is confirmed in
 * the language of its form, and HELP is answered in the language the person
 * signed up in. `Record<Lang, ...>` makes a missing language a type error.
 * The program name is the name registered with the carriers, so it is not
 * translated. Spanish wording for counsel to review, like the consent text.
 */
const PROGRAM_TEXTS: Record<Lang, { confirmation: string; help: string; stopped: string }> = {
  en: {
    confirmation:
      `${IDENTITY.smsProgramName}: Thanks for signing up for campaign texts! Msg frequency varies. ` +
      'Msg & data rates may apply. Reply HELP for help, STOP to unsubscribe.',
    help:
      `${IDENTITY.smsProgramName}: campaign updates from ${IDENTITY.committeeName}. ` +
      `Help: ${IDENTITY.emails.general} or ${IDENTITY.phone.display}. Msg frequency varies. Msg & data rates may apply. ` +
      'Reply STOP to unsubscribe.',
    stopped: `${IDENTITY.smsProgramName}: You're unsubscribed and will get no more texts. Reply START to resubscribe.`,
  },
  es: {
    confirmation:
      `${IDENTITY.smsProgramName}: ¡Gracias por suscribirse a los mensajes de la campaña! La frecuencia de los ` +
      'mensajes varía. Pueden aplicarse tarifas de mensajes y datos. Responda AYUDA para obtener ayuda y ALTO ' +
      'para cancelar.',
    help:
      `${IDENTITY.smsProgramName}: noticias de la campaña de ${IDENTITY.committeeName}. ` +
      `Ayuda: ${IDENTITY.emails.general} o ${IDENTITY.phone.display}. La frecuencia de los mensajes varía. ` +
      'Pueden aplicarse tarifas de mensajes y datos. Responda ALTO para cancelar.',
    stopped:
      `${IDENTITY.smsProgramName}: Su suscripción fue cancelada y no recibirá más mensajes. ` +
      `Responda ${RESUBSCRIBE_KEYWORDS.es} para volver a suscribirse.`,
  },
};

/** The one confirmation text of a new opt-in, in the sign-up's language. */
export function confirmationText(lang: Lang = DEFAULT_LANG): string {
  return PROGRAM_TEXTS[lang].confirmation;
}

/** Our reply to HELP, in the person's language. */
export function helpText(lang: Lang = DEFAULT_LANG): string {
  return PROGRAM_TEXTS[lang].help;
}

/** Our confirmation of a plain-language stop request (Twilio confirms keyword STOPs itself). */
export function stoppedText(lang: Lang = DEFAULT_LANG): string {
  return PROGRAM_TEXTS[lang].stopped;
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
 * A text sign-up from any public form (the JSON endpoint or a plain HTML form
 * post), with every abuse check in order (docs/decisions/038-text-sign-up-limits-sms-pumping.md):
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
  const { id, optIn, person: fresh } = textSignupRecords(input, meta, now);
  const lang = fresh.lang;

  // 1. The request itself, append-only, before anything else.
  const optInKey = await appendConsentEvent(optIn);

  // 2. The person: created once (onlyIfNew). An existing one is never rewritten
  // by a web form, so a burst of identical sign-ups is one create and no writes.
  let existing: StoredTextSignup | null = null;
  for (let attempt = 0; ; attempt++) {
    if (attempt >= 10) throw new ConflictError('Too many concurrent changes. Please try again.');
    if (await signups().create(personKey(id), fresh)) {
      await noteSummary('text-signups', summarize['text-signups'](fresh, personKey(id)));
      break;
    }
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
  // The wording the person saw: the one of their form's language (docs/decisions/056-spanish-texts-forms-and-the-inbox.md).
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
 * Texts someone on the list, through the text guard (src/lib/server/messaging/text-guard.ts:
 * number, consent, STOP read fresh, per-number and daily caps). `dailySlotTaken`: the
 * sign-up already took this text's slot of the daily cap at the door.
 */
export async function sendProgramText(
  phone: string,
  body: string,
  options: { dailySlotTaken?: boolean } = {},
): Promise<
  { sent: false; reason: 'unknown' | Exclude<TextRefusal, 'no_consent'> } | { sent: true; id: string }
> {
  const r = await sendGuardedText({
    to: phone,
    body,
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
    const r = await sendProgramText(phone, confirmationText(lang), { dailySlotTaken: true });
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
    console.error(`[newsletter] confirmation text failed: ${error}`);
    confirmation = { status: 'failed', messageId: null, error: error.slice(0, 300), at: at() };
    await appendConsentEvent({
      ...emptyEvent(id, 'confirmation_failed', confirmation.at),
      phone,
      error: confirmation.error,
      refKey,
    }).catch((e: unknown) => console.error('[newsletter] could not log the failed confirmation', e));
  }
  // Staff see the outcome on the person; failing to note it loses nothing (the opt-in is stored). Every change
  // moves updatedAt on, which versions the person's summary in the Inbox index.
  const next = await update<StoredTextSignup>(signups(), personKey(id), (cur) => ({
    ...cur,
    confirmation,
    updatedAt: laterStamp(new Date(), cur.updatedAt),
  })).catch((e: unknown) => {
    console.error('[newsletter] could not record the confirmation status', e);
    return null;
  });
  if (next) await noteSummary('text-signups', summarize['text-signups'](next, personKey(id)));
  return confirmation;
}

// ---------------------------------------------------------------------------
// Inbound texts (Twilio webhook)

export type InboundKind = 'stop' | 'start' | 'help' | 'other';

/**
 * Every keyword the inbound webhook acts on, by kind and language (docs/decisions/067-the-public-site-in-spanish.md):
 * the one list that docs/deploy.md gives for Twilio's Advanced Opt-Out (a unit
 * test holds the two together, since carrier-level keywords must match ours).
 * Matched whole, case- and accent-insensitively.
 */
export const INBOUND_KEYWORDS = {
  // Twilio's own opt-out words, then the Spanish ones.
  stop: {
    en: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'],
    es: ['ALTO', 'PARAR', 'CANCELAR', 'DETENER'],
  },
  start: { en: [RESUBSCRIBE_KEYWORDS.en, 'UNSTOP', 'YES'], es: [RESUBSCRIBE_KEYWORDS.es, 'INICIAR'] },
  help: { en: ['HELP', 'INFO'], es: ['AYUDA'] },
} as const satisfies Record<Exclude<InboundKind, 'other'>, Record<Lang, readonly string[]>>;

/** Keyword -> its kind and language. */
const KEYWORD_INDEX = new Map<string, { kind: Exclude<InboundKind, 'other'>; lang: Lang }>();
for (const [kind, byLang] of Object.entries(INBOUND_KEYWORDS) as [
  Exclude<InboundKind, 'other'>,
  Record<Lang, readonly string[]>,
][]) {
  for (const [lang, words] of Object.entries(byLang) as [Lang, readonly string[]][])
    for (const word of words) KEYWORD_INDEX.set(word, { kind, lang });
}

/** Plain-language stop requests: a person writing a sentence instead of a keyword. */
const PLAIN_STOP: Record<Lang, RegExp> = {
  en: /\b(stop (texting|messaging|sending|contacting)|unsubscribe|remove me|take me off|opt me out|opt out|do not (text|message|contact)|don'?t (text|message|contact)|no more (texts|messages|text messages)|leave me alone|wrong number)\b/i,
  // Matched on the text without accents ("más" -> "mas").
  es: /\b(no (me )?(manden|envien|escriban|mande|envie|escriba) mas|ya no (quiero|deseo) (recibir )?(mas )?(mensajes|textos)|no quiero (recibir )?(mas )?(mensajes|textos)|borrenme|quitenme|sacarme de (la|su) lista|numero equivocado|dejenme en paz)\b/i,
};

/** Upper case without accents or diacritics ("Ayúda" -> "AYUDA"). */
const withoutAccents = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '');

/**
 * What an inbound text asks for, and the language it asked in (null when it
 * asks for nothing we act on).
 */
export function classifyInbound(body: string): { kind: InboundKind; keyword: boolean; lang: Lang | null } {
  const plain = withoutAccents(body);
  const compact = plain.toUpperCase().replace(/[^A-Z]/g, '');
  const hit = KEYWORD_INDEX.get(compact);
  if (hit) return { kind: hit.kind, keyword: true, lang: hit.lang };
  if (PLAIN_STOP.en.test(plain)) return { kind: 'stop', keyword: false, lang: 'en' };
  if (PLAIN_STOP.es.test(plain)) return { kind: 'stop', keyword: false, lang: 'es' };
  return { kind: 'other', keyword: false, lang: null };
}

export interface InboundText {
  messageSid: string;
  from: string;
  body: string;
}

/**
 * Applies one inbound text to the consent log and the person's state.
 * Returns the reply to send (null: none; Twilio's advanced opt-out answers
 * STOP and START keywords itself). A reply is in the language the person
 * signed up in; for a number not on the list, in the language it wrote in.
 */
export async function applyInboundText(msg: InboundText, now = new Date()): Promise<string | null> {
  const at = now.toISOString();
  const { kind, keyword, lang: asked } = classifyInbound(msg.body);
  if (kind === 'other') return null;
  const id = hashed(msg.from);
  const known = await getPerson(id);
  const lang = known?.lang ?? asked ?? DEFAULT_LANG;
  const base = {
    ...emptyEvent(id, kind, at),
    phone: msg.from,
    lang,
    inboundMessageSid: msg.messageSid,
    inboundBody: msg.body.slice(0, 1600),
  };
  await appendConsentEvent(base);
  if (kind === 'stop') {
    await markOptedOut(msg.from, at, lang);
    // A keyword STOP is confirmed by Twilio itself; a sentence is not, so we confirm it.
    return keyword ? null : stoppedText(lang);
  }
  if (kind === 'start') {
    // START re-subscribes someone who consented before; it never creates a subscriber.
    const next = await update<StoredTextSignup>(signups(), personKey(id), (cur) => ({
      ...cur,
      smsStatus: 'subscribed',
      updatedAt: laterStamp(now, cur.updatedAt),
    }));
    if (next) await noteSummary('text-signups', summarize['text-signups'](next, personKey(id)));
    return null;
  }
  return helpText(lang);
}
