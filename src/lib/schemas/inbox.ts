import { z } from './zod.ts';
import { ContactMessageSchema, VolunteerSignupSchema } from './forms.ts';
import { LANGS } from '../lang.ts';

/**
 * What the form endpoints store and the staff inbox reads back. Each stored
 * record is parsed with these on the way out (and the tests re-parse
 * everything stored), so a record that does not fit never reaches the dashboard.
 */

const iso = z.string().min(1);

/**
 * The language a person used (docs/decisions/166-spanish.md): the form's language, so staff answer
 * in it and texts go out in it. Records stored before there was a Spanish site
 * have none and read as English.
 */
const storedLang = z.enum(LANGS).default('en');

/** Delivery state of the email or text that follows a stored submission. */
export const DeliveryStatusSchema = z.enum(['pending', 'sent', 'failed', 'skipped']);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

/** One person on the text list (store `signups`, key `person/<sha256 of phone, else email>`). */
export const StoredTextSignupSchema = z.object({
  id: z.string().regex(/^[a-f0-9]{32,64}$/),
  firstName: z.string().max(80),
  phone: z
    .string()
    .regex(/^\+\d{8,15}$/)
    .nullable(),
  email: z.string().max(254).nullable(),
  /** Current opt-in state; the consent log (`consent/<id>/...`) holds the history. */
  smsStatus: z.enum(['subscribed', 'opted_out']),
  /** The web opt-in that started the current subscription (UTC) and its consent text version. */
  consentAt: iso.nullable(),
  consentVersion: z.string().nullable(),
  /** The language of the sign-up: its consent wording, the confirmation text and HELP replies. */
  lang: storedLang,
  optedOutAt: iso.nullable(),
  sourcePage: z.string().nullable(),
  createdAt: iso,
  updatedAt: iso,
  /** The confirmation text of the latest new opt-in. */
  confirmation: z
    .object({
      status: DeliveryStatusSchema,
      messageId: z.string().nullable(),
      error: z.string().nullable(),
      at: iso,
    })
    .nullable(),
});
export type StoredTextSignup = z.infer<typeof StoredTextSignupSchema>;

export const CONSENT_EVENT_TYPES = [
  'web_opt_in',
  /** A web opt-in for a number that replied STOP: recorded, refused, nothing sent (refKey: the opt-in). */
  'web_opt_in_refused',
  'confirmation_sent',
  'confirmation_failed',
  'stop',
  'start',
  'help',
  /** An RSVP's opt-in to event reminder texts (event-scoped: not the recurring list). */
  'rsvp_reminder_opt_in',
  'rsvp_reminder_sent',
  /** A plan to vote's opt-in to its reminder texts (plan-scoped: not the recurring list). */
  'plan_reminder_opt_in',
  /** The same, typed in a pledge for a number that already has a plan: recorded, held, never used (refKey: the pledge). */
  'plan_reminder_opt_in_held',
  'plan_reminder_sent',
  /** A send the carrier refused because the number opted out there (Twilio 21610): recorded as a STOP. */
  'carrier_opt_out',
] as const;

/** One append-only consent log entry (key `consent/<person id>/<iso time>-<random>`, never rewritten). */
export const ConsentEventSchema = z.object({
  type: z.enum(CONSENT_EVENT_TYPES),
  at: iso,
  personId: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  /** Web opt-ins: the exact text beside the checkbox, its version and sha256. */
  consentText: z.string().nullable(),
  consentVersion: z.string().nullable(),
  consentTextSha256: z.string().nullable(),
  /**
   * Web opt-ins: the language of the form (and so of consentText). Inbound
   * texts: the language of our reply (the person's language).
   */
  lang: storedLang,
  sourcePage: z.string().nullable(),
  /** Platform client IP and user agent of the web request. */
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** Outbound confirmation message id (Twilio SID or outbox id). */
  messageId: z.string().nullable(),
  /** Inbound texts: Twilio's MessageSid and the text as received. */
  inboundMessageSid: z.string().nullable(),
  inboundBody: z.string().nullable(),
  error: z.string().nullable(),
  /** For confirmation events: the key of the opt-in they confirm. */
  refKey: z.string().nullable(),
});
export type ConsentEvent = z.infer<typeof ConsentEventSchema>;

const submissionMeta = {
  id: z.string().min(1),
  createdAt: iso,
  updatedAt: iso,
  emailStatus: DeliveryStatusSchema,
  emailError: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  lang: storedLang,
};

/**
 * A stored name reads back as it was kept: intake's refusal of invisible characters (forms.ts `personName`) is not
 * applied to records, so one kept before that rule still shows in the Inbox and still gets the greeting fallback.
 */
const storedName = z.string();

/** A volunteer (store `volunteers`, key `volunteer/<sha256 of email>`: one record per email). */
export const StoredVolunteerSchema = VolunteerSignupSchema.omit({ captchaResponse: true }).extend({
  ...submissionMeta,
  firstName: storedName,
  lastName: storedName,
});
export type StoredVolunteer = z.infer<typeof StoredVolunteerSchema>;

/** A contact message (store `contacts`, key `message/<iso time>-<random>`: one per submission). */
export const StoredContactSchema = ContactMessageSchema.omit({ captcha: true }).extend({
  ...submissionMeta,
  name: storedName,
});
export type StoredContact = z.infer<typeof StoredContactSchema>;

/**
 * A newsletter subscriber from the blog's email box (store `subscribers`, key
 * `subscriber/<sha256 of email>`: one record per address, the first
 * subscription kept). The consent wording shown beside the box is stored as
 * shown, with its version. Double opt-in (docs/decisions/167-email-and-newsletter.md):
 * `pending` until the person opens the emailed link and confirms; only
 * `subscribed` records are listed and exported. A record from before double
 * opt-in has no status and reads as `subscribed` with `confirmedAt: null`.
 */
export const StoredSubscriberSchema = z.object({
  id: z.string().regex(/^[a-f0-9]{64}$/),
  email: z.string().max(254),
  sourcePage: z.string().nullable(),
  consentText: z.string(),
  consentVersion: z.string(),
  /** The language of the box and of the consent wording recorded (docs/decisions/166-spanish.md); older records are English. */
  lang: storedLang,
  createdAt: iso,
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  status: z.enum(['pending', 'subscribed']).default('subscribed'),
  /** When the confirmation link was used, from where (the double opt-in's evidence); null before double opt-in. */
  confirmedAt: iso.nullable().default(null),
  confirmIp: z.string().nullable().default(null),
  confirmUserAgent: z.string().nullable().default(null),
  /** When the box last caused an email to this address: at most NEWSLETTER_CONFIRM.maxEmails within its days. */
  emailsSent: z.array(iso).max(20).default([]),
});
export type StoredSubscriber = z.infer<typeof StoredSubscriberSchema>;
