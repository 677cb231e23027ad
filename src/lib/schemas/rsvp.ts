import { z } from './zod.ts';
import { captchaToken, optionalPhone, personName, requiredEmail } from './forms.ts';
import { RSVP_MESSAGES } from './rsvp-rules.ts';
import { fingerprint } from '../fingerprint.ts';
import { LANGS, type Lang } from '../lang.ts';
import { MAX_SLOTS_PER_SIGNUP, slotId, type ShiftSlotResult } from './shifts.ts';

/**
 * RSVPs to public events that take registration on this site (docs/decisions/150-rsvp.md).
 * One schema for the form, the endpoint and the stored records.
 */

export const RSVP_MAX_GUESTS = 5;
export const RSVP_GUEST_OPTIONS = Array.from({ length: RSVP_MAX_GUESTS + 1 }, (_, i) => i);

export { RSVP_MESSAGES } from './rsvp-rules.ts';

/**
 * The consent shown beside the reminder checkbox and stored verbatim in the
 * consent log, as for the text sign-up. It covers event texts only: it never
 * puts anyone on the campaign's recurring text list. The Spanish event page
 * (docs/decisions/166-spanish.md) shows and records the Spanish wording, a translation for counsel
 * to review with the same terms.
 */
export const RSVP_SMS_CONSENT_VERSION = '2025-10-01';
export function rsvpSmsConsentText(committeeName: string, lang: Lang = 'en'): string {
  if (lang === 'es') {
    return (
      `Envíenme un recordatorio el día antes de este evento. Al marcar esta casilla, acepto recibir mensajes de texto ` +
      `sobre este evento de ${committeeName}, incluidos mensajes enviados con marcador automático. Pueden aplicarse ` +
      'tarifas de mensajes y datos. Responda AYUDA para obtener ayuda y ALTO para cancelar. El consentimiento no es ' +
      'condición para asistir.'
    );
  }
  return (
    `Text me a reminder the day before this event. By checking this box, I agree to receive text messages ` +
    `about this event from ${committeeName}, including messages sent by autodialer. Msg & data rates may apply. ` +
    'Reply HELP for help and STOP to opt out. Consent is not a condition of attending.'
  );
}

/** The reminder consent's version in a language: the English one's date, plus the language and text's fingerprint. */
export function rsvpSmsConsentVersion(committeeName: string, lang: Lang = 'en'): string {
  return lang === 'en'
    ? RSVP_SMS_CONSENT_VERSION
    : `${RSVP_SMS_CONSENT_VERSION}.${lang}.${fingerprint(rsvpSmsConsentText(committeeName, lang))}`;
}

/** POST /api/events/:id/rsvp. */
export const RsvpInputSchema = z
  .strictObject({
    name: personName(120, RSVP_MESSAGES.name),
    email: requiredEmail,
    phone: optionalPhone,
    guests: z.coerce
      .number('Choose the number of guests')
      .int('Choose the number of guests')
      .min(0, 'Choose the number of guests')
      .max(RSVP_MAX_GUESTS, `At most ${RSVP_MAX_GUESTS} guests`)
      .default(0),
    /** Opt-in to the day-before text reminder (unchecked by default). */
    smsReminder: z.boolean().default(false),
    captchaResponse: captchaToken,
    /** The language of the page the RSVP came from (docs/decisions/166-spanish.md): its consent wording and outcome page. */
    lang: z.enum(LANGS).optional(),
    /** The shifts picked, when the event has shifts (docs/decisions/181-shifts.md); ignored otherwise. */
    slots: z.array(slotId).max(MAX_SLOTS_PER_SIGNUP, `At most ${MAX_SLOTS_PER_SIGNUP} shifts`).default([]),
  })
  .refine((r) => !r.smsReminder || Boolean(r.phone), {
    message: RSVP_MESSAGES.phoneForSms,
    path: ['phone'],
  });
export type RsvpInput = z.input<typeof RsvpInputSchema>;

/**
 * POST /api/rsvp/cancel: the two parts of the link in the RSVP emails (the
 * event and a keyed token: docs/decisions/150-rsvp.md), and
 * the language of the page the button was on (its outcome page's language).
 */
export const RsvpCancelSchema = z.strictObject({
  event: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, RSVP_MESSAGES.badLink),
  lang: z.enum(LANGS).optional(),
});

export const RSVP_STATUSES = ['going', 'waitlisted', 'cancelled'] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];

export const DeliverySchema = z.object({
  status: z.enum(['pending', 'sending', 'sent', 'failed', 'skipped']),
  at: z.string(),
  error: z.string().nullable(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

/** One person's RSVP (store `rsvps`, key `rsvp/<event id>/<sha256 of email>`). */
export const StoredRsvpSchema = z.object({
  id: z.string().regex(/^[a-f0-9]{64}$/),
  eventId: z.number().int().positive(),
  name: z.string().max(120),
  email: z.string().max(254),
  phone: z.string().nullable(),
  guests: z.number().int().min(0).max(RSVP_MAX_GUESTS),
  smsReminder: z.boolean(),
  /** A cache of the roster's answer ('pending' until the roster has placed it); the roster document is the truth. */
  status: z.enum(['pending', ...RSVP_STATUSES]),
  /** The language of the page the RSVP came from: its emails link to the cancellation page in it. */
  lang: z.enum(LANGS).default('en'),
  /**
   * When the last "you have already RSVP'd" status email went out (at most one
   * per RSVP per RSVP_STATUS_EMAIL_WINDOW_MS: docs/decisions/150-rsvp.md).
   */
  statusEmailAt: z.string().nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
  cancelledAt: z.string().nullable(),
  checkedInAt: z.string().nullable(),
  checkedInBy: z.string().nullable(),
  confirmation: DeliverySchema.nullable(),
  promotion: DeliverySchema.nullable(),
  reminderEmail: DeliverySchema.nullable(),
  reminderSms: DeliverySchema.nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type StoredRsvp = z.infer<typeof StoredRsvpSchema>;

/** One place in an event's roster (key `roster/<event id>`), in arrival order. */
/**
 * What staff lists, search and export show of a person, kept with their place so a page of any size reads
 * the roster and nothing per person (docs/decisions/155-inbox-and-staff-lists.md). Absent on places taken
 * before it was kept: those are read from the person's record.
 */
export const RosterPersonSchema = z.object({
  name: z.string().max(120),
  email: z.string().max(254),
  phone: z.string().nullable(),
  smsReminder: z.boolean(),
});
export type RosterPerson = z.infer<typeof RosterPersonSchema>;

export const RosterEntrySchema = z.object({
  id: z.string(),
  /** The person plus their guests. */
  seats: z.number().int().min(1),
  status: z.enum(RSVP_STATUSES),
  at: z.string(),
  promotedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  person: RosterPersonSchema.optional(),
});
export type RosterEntry = z.infer<typeof RosterEntrySchema>;

export const RosterSchema = z.object({
  eventId: z.number().int().positive(),
  entries: z.array(RosterEntrySchema),
});
export type Roster = z.infer<typeof RosterSchema>;

/** GET /api/events/:id/rsvp: what the form shows before anyone submits. */
export interface RsvpAvailability {
  open: boolean;
  capacity: number | null;
  seatsTaken: number;
  seatsLeft: number | null;
  waitlisted: number;
}

/** POST /api/events/:id/rsvp. */
export interface RsvpResult {
  status: 'going' | 'waitlisted';
  message: string;
  /** 1-based place on the waitlist. */
  position: number | null;
  /** Each shift's outcome, when the event has shifts (docs/decisions/181-shifts.md). */
  slots?: ShiftSlotResult[];
}

/** One row of the staff view (GET /api/admin/events/:id/rsvps). */
export interface RsvpRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  guests: number;
  status: RsvpStatus;
  position: number | null;
  createdAt: string;
  checkedInAt: string | null;
  smsReminder: boolean;
  /** Their own answer to "how did it go" (the sequence's follow-up), when staff did not check them in. */
  reported: 'attended' | 'absent' | null;
}

export interface RsvpStaffView {
  event: { id: number; title: string; eventDate: string; startTime: string };
  capacity: number | null;
  goingSeats: number;
  goingPeople: number;
  waitlistedPeople: number;
  checkedIn: number;
  items: RsvpRow[];
  total: number;
  page: number;
  pageSize: number;
}

export const CheckInSchema = z.strictObject({ checkedIn: z.boolean() });

/**
 * Who is checked in at an event (key `checkin/<event id>`): the door's own document, so check-ins never
 * contend with RSVPs on the roster, and a staff page learns every check-in with one read
 * (docs/decisions/155-inbox-and-staff-lists.md). The person's record keeps the same fields.
 */
export const CheckInsSchema = z.object({
  eventId: z.number().int().positive(),
  people: z.record(z.string(), z.object({ at: z.string(), by: z.string() })),
  /**
   * What a person answered the confirm-and-remind follow-up ("how did it go": docs/decisions/181-shifts.md, "The
   * event without slots"), kept unless staff checked them in: shown beside them in the attendee list.
   */
  reported: z
    .record(z.string(), z.object({ outcome: z.enum(['attended', 'absent']), at: z.string() }))
    .default({}),
});
export type CheckIns = z.infer<typeof CheckInsSchema>;
