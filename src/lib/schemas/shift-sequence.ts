import { z } from './zod.ts';
import { LANGS } from '../lang.ts';
import { time24 } from './fields.ts';
import { ShiftsInputSchema, slotId } from './shifts.ts';
import { DeliverySchema } from './rsvp.ts';

/*
 * The confirm-and-remind sequence of an event's shifts (docs/decisions/181-shifts.md, "The sequence"): after the
 * sign-up's confirmation, four steps per slot, each on or off per event and timed in campaign time.
 */

/** The steps after the sign-up, in the order they fall. */
export const SEQUENCE_STEPS = ['dayBefore', 'morning', 'soon', 'followUp'] as const;
export type SequenceStep = (typeof SEQUENCE_STEPS)[number];

/** One message of a step: a step sends an email, a text, or both (the day before). */
export const SEQUENCE_MESSAGES = [
  'dayBeforeText',
  'dayBeforeEmail',
  'morningEmail',
  'soonText',
  'followUpEmail',
] as const;
export type SequenceMessage = (typeof SEQUENCE_MESSAGES)[number];

export const SequenceConfigSchema = z.strictObject({
  /** The day before the slot, at this campaign hour: a text and an email asking to confirm or cancel. */
  dayBefore: z.strictObject({ on: z.boolean().default(true), at: time24.default('11:00') }).default({
    on: true,
    at: '11:00',
  }),
  /** The slot's day, at this campaign hour: an email. */
  morning: z.strictObject({ on: z.boolean().default(true), at: time24.default('08:00') }).default({
    on: true,
    at: '08:00',
  }),
  /** This many minutes before the slot starts: a text. */
  soon: z
    .strictObject({
      on: z.boolean().default(true),
      minutesBefore: z.coerce.number().int().min(5).max(240).default(30),
    })
    .default({ on: true, minutesBefore: 30 }),
  /** This many minutes after the slot ends: the "how did it go" email with its two attendance links. */
  followUp: z
    .strictObject({
      on: z.boolean().default(true),
      minutesAfter: z.coerce.number().int().min(0).max(1440).default(60),
    })
    .default({ on: true, minutesAfter: 60 }),
});
export type SequenceConfig = z.infer<typeof SequenceConfigSchema>;
export const DEFAULT_SEQUENCE: SequenceConfig = SequenceConfigSchema.parse({});
/**
 * An event without slots until staff turn its steps on (docs/decisions/181-shifts.md, "The event without slots"):
 * every step off, and the RSVP's own day-before reminder goes as before.
 */
export const SEQUENCE_OFF: SequenceConfig = SequenceConfigSchema.parse({
  dayBefore: { on: false },
  morning: { on: false },
  soon: { on: false },
  followUp: { on: false },
});

/**
 * PUT /api/admin/events/:id/shifts: the slots, whole, and (optionally) the sequence's steps. Without `slots` the
 * slots are kept (an event without slots sends its steps alone).
 */
export const ShiftsPutSchema = ShiftsInputSchema.extend({
  slots: ShiftsInputSchema.shape.slots.optional(),
  sequence: SequenceConfigSchema.optional(),
});

/** What a volunteer may answer from a link: confirm or cancel the slot (the day before), or how it went. */
export const SHIFT_ANSWERS = ['confirm', 'cancel', 'attended', 'absent'] as const;
export type ShiftAnswer = (typeof SHIFT_ANSWERS)[number];

/** POST /api/shifts/answer: the parts of a keyed link (the event, the slot, the answer and its token). */
export const ShiftAnswerSchema = z.strictObject({
  event: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  slot: slotId,
  answer: z.enum(SHIFT_ANSWERS, 'Unknown answer'),
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not valid'),
  lang: z.enum(LANGS).optional(),
});

/**
 * One person's sequence on one slot (`shift-seq/<event>/<slot>/<person>`, store `rsvps`): each message's
 * delivery, claimed under compare-and-set before it is sent (src/lib/server/messaging/delivery-claims.ts), and
 * the person's answer to the day-before question.
 */
export const SequenceRecordSchema = z.object({
  eventId: z.number().int().positive(),
  slotId: z.string(),
  personId: z.string(),
  dayBeforeText: DeliverySchema.nullable().default(null),
  dayBeforeEmail: DeliverySchema.nullable().default(null),
  morningEmail: DeliverySchema.nullable().default(null),
  soonText: DeliverySchema.nullable().default(null),
  followUpEmail: DeliverySchema.nullable().default(null),
  /** The answer to the day-before question (a reply or a link), and when. */
  answer: z.enum(['confirmed', 'cancelled']).nullable().default(null),
  answeredAt: z.string().nullable().default(null),
  updatedAt: z.string(),
});
export type SequenceRecord = z.infer<typeof SequenceRecordSchema>;
