import { z } from './zod.ts';
import { LANGS } from '../lang.ts';
import { INVISIBLE_CHARACTERS } from '../merge-fields.ts';
import {
  cleanString,
  email,
  optionalEmail,
  phone,
  requiredText,
  text,
  toE164,
  type TextOptions,
} from './fields.ts';
import {
  CAPTCHA_REQUIRED,
  CONTACT_SUBJECTS,
  FIELD_MAX,
  FIELD_MESSAGES,
  NAME_CHARACTERS_MESSAGE,
  NEWSLETTER_TOKEN,
  STATES,
  TEXT_SIGNUP_MESSAGES,
  TEXT_SIGNUP_PHONE_NEEDED,
} from './public-forms.ts';

/*
 * The public forms' schemas. Their enum lists, limits and messages come from
 * the zod-free public-forms.ts, which the islands import instead of this file.
 */
export { CAPTCHA_REQUIRED, CONTACT_SUBJECTS, NAME_CHARACTERS_MESSAGE, STATES, TEXT_SIGNUP_MESSAGES };

/**
 * Required text whose message also covers a missing or non-string value, so a
 * form that omits the field gets the spec's message rather than a type error.
 */
export const required = (max: number, message: string, options: TextOptions = {}) =>
  z.string(message).pipe(requiredText(max, message, options));
/**
 * No invisible format character, checked before trimming (trim() would drop a byte-order mark unseen). Control
 * characters are left to the one-line rule after it (CONTROL_CHARACTERS_MESSAGE), as in every other field.
 */
const visibleOnly = (v: string) => !INVISIBLE_CHARACTERS.test(v.replace(/[\p{Cc}]/gu, ''));

/**
 * A person's name as typed on a public form: required text on one line, without invisible format characters
 * (bidi overrides and isolates, zero-width characters, the byte-order mark), which only ever disguise what a name
 * says (docs/decisions/075-names-are-not-a-channel.md). Control characters get `required`'s own message first.
 */
export const personName = (max: number, message: string) =>
  z.string(message).refine(visibleOnly, NAME_CHARACTERS_MESSAGE).pipe(requiredText(max, message));
/** Optional names (whom a voter brings): the same refusal, empty allowed. */
export const optionalNames = (max: number) =>
  z.string().refine(visibleOnly, NAME_CHARACTERS_MESSAGE).pipe(text(max));
export const requiredEmail = z.string(FIELD_MESSAGES.email).pipe(email);
const requiredPhone = z.string(FIELD_MESSAGES.phone).pipe(phone);
/** Optional phone: '' or missing is undefined, anything else must be a phone (with the phone field's message). */
export const optionalPhone = z
  .string(FIELD_MESSAGES.phone)
  .max(32, 'Phone number is too long')
  .optional()
  .transform((v, ctx) => {
    if (!v?.trim()) return undefined;
    const e164 = toE164(v);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: FIELD_MESSAGES.phone });
      return z.NEVER;
    }
    return e164;
  });

export const captchaToken = z.string(CAPTCHA_REQUIRED).min(1, CAPTCHA_REQUIRED).max(4096, CAPTCHA_REQUIRED);

/** The page a form was on, for the consent records (a site path only). */
const sourcePage = z
  .string()
  .max(200)
  .regex(/^\/[\w\-/]*$/)
  .optional();

/** The language of the page a public form was sent from (docs/decisions/166-spanish.md): optional, English when absent. */
const formLang = z.enum(LANGS).optional();

/** POST /api/newsletter: the text-message sign-up. */
export const TextSignupSchema = z
  .strictObject({
    firstName: personName(FIELD_MAX.firstName, TEXT_SIGNUP_MESSAGES.firstName.description),
    phone: optionalPhone,
    email: optionalEmail,
    smsConsent: z.literal(true, TEXT_SIGNUP_MESSAGES.consent.description),
    /** The page the form was on, for the consent record. */
    sourcePage,
    /**
     * Turnstile token (docs/decisions/151-texting.md: the bot check that keeps scripts from making the
     * campaign pay for texts). A browser form post sends Turnstile's own field,
     * `cf-turnstile-response`, mapped to this; a post without JavaScript has none
     * and is held to the no-script budget instead (src/lib/server/public-forms/accept.ts).
     */
    captcha: captchaToken.optional(),
    /** The language of the page the form was on (docs/decisions/166-spanish.md; hidden field of the /es/ forms). */
    lang: formLang,
  })
  .superRefine((v, ctx) => {
    // The spec's browser checks stay as they are (first name, consent, "no other checks"); the server refuses a
    // sign-up no one could reach, on the phone field (docs/decisions/151-texting.md).
    if (!v.phone && !v.email)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: TEXT_SIGNUP_PHONE_NEEDED });
  });
export type TextSignupInput = z.input<typeof TextSignupSchema>;

/** POST /api/volunteers-sendgrid. */
export const VolunteerSignupSchema = z.strictObject({
  firstName: personName(FIELD_MAX.firstName, FIELD_MESSAGES.firstName),
  lastName: personName(FIELD_MAX.lastName, FIELD_MESSAGES.lastName),
  email: requiredEmail,
  phone: requiredPhone,
  address1: required(FIELD_MAX.address, FIELD_MESSAGES.address),
  address2: text(FIELD_MAX.address).default(''),
  city: required(FIELD_MAX.city, FIELD_MESSAGES.city),
  state: z.enum(STATES, FIELD_MESSAGES.state),
  /**
   * Optional ZIP: 5 digits or ZIP+4, for matching against the voter file (the staff CSV's `zip` column).
   * Not on the spec's form; optional so the spec's required list stands (docs/decisions/159-public-forms.md).
   */
  zip: z
    .string(FIELD_MESSAGES.zip)
    .trim()
    .regex(/^(\d{5}(-\d{4})?)?$/, FIELD_MESSAGES.zip)
    .optional()
    .transform((v) => v ?? ''),
  /** Help areas the volunteer ticked (optional). */
  interests: z.array(cleanString().max(60)).max(10).optional().default([]),
  captchaResponse: captchaToken,
  lang: formLang,
});
export type VolunteerSignupInput = z.input<typeof VolunteerSignupSchema>;

/** POST /api/contact. */
export const ContactMessageSchema = z.strictObject({
  name: personName(FIELD_MAX.name, FIELD_MESSAGES.name),
  email: requiredEmail,
  phone: optionalPhone,
  subject: z.enum(CONTACT_SUBJECTS, FIELD_MESSAGES.subject),
  message: required(FIELD_MAX.message, FIELD_MESSAGES.message, { multiline: true }),
  captcha: captchaToken,
  lang: formLang,
});
export type ContactMessageInput = z.input<typeof ContactMessageSchema>;

/**
 * POST /api/email-subscribers: the blog's newsletter box (docs/decisions/162-public-pages-and-performance.md: the address is kept, not dropped;
 * since docs/decisions/167-email-and-newsletter.md: behind the captcha, and pending until confirmed).
 */
export const EmailSubscriptionSchema = z.strictObject({
  email: requiredEmail,
  sourcePage,
  /** Turnstile token, as on the contact form (a form post maps `cf-turnstile-response` to it). */
  captcha: captchaToken,
  lang: formLang,
});
export type EmailSubscriptionInput = z.input<typeof EmailSubscriptionSchema>;

/** What every refused confirmation link is told (unknown, malformed or expired: one message). */
export const NEWSLETTER_LINK_INVALID =
  'This confirmation link is invalid or has expired. Please subscribe again from the newsletter box.';

/** POST /api/email-subscribers/confirm: the Confirm button of the newsletter's confirmation page. */
export const NewsletterConfirmSchema = z.strictObject({
  /** 256 random bits, base64url (the link's `token`); only its sha256 is stored. */
  token: z.string(NEWSLETTER_LINK_INVALID).regex(NEWSLETTER_TOKEN, NEWSLETTER_LINK_INVALID),
  /** The language of the confirmation page: the outcome page is in the same one. */
  lang: formLang,
});
export type NewsletterConfirmInput = z.input<typeof NewsletterConfirmSchema>;
