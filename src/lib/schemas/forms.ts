import { z } from './zod.ts';
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

/**
 * Required text whose message also covers a missing or non-string value, so a
 * form that omits the field gets the spec's message rather than a type error.
 */
export const required = (max: number, message: string, options: TextOptions = {}) =>
  z.string(message).pipe(requiredText(max, message, options));
export const requiredEmail = z.string('Please enter a valid email address').pipe(email);
const requiredPhone = z.string('Please enter a valid phone number').pipe(phone);
/**
 * Optional phone: '' or missing is undefined, anything else must be a phone
 * (fields.ts `optionalPhone` is a union, whose error would read 'Invalid input').
 */
export const optionalPhone = z
  .string('Please enter a valid phone number')
  .max(32, 'Phone number is too long')
  .optional()
  .transform((v, ctx) => {
    if (!v?.trim()) return undefined;
    const e164 = toE164(v);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: 'Please enter a valid phone number' });
      return z.NEVER;
    }
    return e164;
  });

export const CAPTCHA_REQUIRED = 'Please complete the CAPTCHA';
export const captchaToken = z.string(CAPTCHA_REQUIRED).min(1, CAPTCHA_REQUIRED).max(4096, CAPTCHA_REQUIRED);

/** Spec section 5 messages for the text-message sign-up (title / description pairs). */
export const TEXT_SIGNUP_MESSAGES = {
  firstName: { title: 'First name required', description: 'Please enter your first name.' },
  consent: {
    title: 'SMS consent required',
    description: 'Please check the box to consent to receiving text messages.',
  },
} as const;

/** POST /api/newsletter: the text-message sign-up. */
export const TextSignupSchema = z.strictObject({
  firstName: required(80, TEXT_SIGNUP_MESSAGES.firstName.description),
  phone: optionalPhone,
  email: optionalEmail,
  smsConsent: z.literal(true, TEXT_SIGNUP_MESSAGES.consent.description),
  /** The page the form was on, for the consent record. */
  sourcePage: z
    .string()
    .max(200)
    .regex(/^\/[\w\-/]*$/)
    .optional(),
  /**
   * Turnstile token (issue 15: the bot check that keeps scripts from making the
   * campaign pay for texts). A form post without JavaScript sends Turnstile's
   * own field, `cf-turnstile-response`, mapped to this.
   */
  captcha: captchaToken,
});
export type TextSignupInput = z.input<typeof TextSignupSchema>;

export const STATES = ['LA', 'AL', 'AR', 'FL', 'GA', 'MS', 'TX', 'Other'] as const;

/** POST /api/volunteers-sendgrid. */
export const VolunteerSignupSchema = z.strictObject({
  firstName: required(80, 'First name is required'),
  lastName: required(80, 'Last name is required'),
  email: requiredEmail,
  phone: requiredPhone,
  address1: required(200, 'Address is required'),
  address2: text(200).default(''),
  city: required(100, 'City is required'),
  state: z.enum(STATES, 'Please choose a state'),
  /** Optional ZIP (not on the spec's form; kept for voter-contact exports when a form sends it). */
  zip: z
    .string()
    .trim()
    .regex(/^(\d{5}(-\d{4})?)?$/, 'Please enter a valid ZIP code')
    .optional()
    .transform((v) => v ?? ''),
  /** Help areas the volunteer ticked (optional). */
  interests: z.array(cleanString().max(60)).max(10).optional().default([]),
  captchaResponse: captchaToken,
});
export type VolunteerSignupInput = z.input<typeof VolunteerSignupSchema>;

export const CONTACT_SUBJECTS = [
  'general',
  'volunteer',
  'press',
  'endorsement',
  'event',
  'policy',
  'donation',
  'interview',
] as const;
export const CONTACT_SUBJECT_LABELS: Record<(typeof CONTACT_SUBJECTS)[number], string> = {
  general: 'General Inquiry',
  volunteer: 'Volunteering',
  press: 'Press Inquiry',
  endorsement: 'Endorsement',
  event: 'Event Request',
  policy: 'Policy Question',
  donation: 'Donations',
  interview: 'Interview Request',
};

/** POST /api/contact. */
export const ContactMessageSchema = z.strictObject({
  name: required(120, 'Full name is required'),
  email: requiredEmail,
  phone: optionalPhone,
  subject: z.enum(CONTACT_SUBJECTS, 'Please choose a subject'),
  message: required(5000, 'Message is required', { multiline: true }),
  captcha: captchaToken,
});
export type ContactMessageInput = z.input<typeof ContactMessageSchema>;

/**
 * The SMS consent text shown beside the checkbox and stored verbatim (with
 * this version) in every consent record. Change the version when the text changes.
 */
export const SMS_CONSENT_VERSION = '2025-09-17';
export function smsConsentText(committeeName: string): string {
  return (
    `By checking this box, I agree to receive recurring text messages from ${committeeName}, ` +
    'including messages sent by autodialer. Message frequency varies. Msg & data rates may apply. ' +
    'Reply HELP for help and STOP to unsubscribe. Consent is not a condition of any purchase or donation. ' +
    'See our Privacy Policy and Terms of Use.'
  );
}
