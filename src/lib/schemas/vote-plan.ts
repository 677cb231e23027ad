import { z } from './zod.ts';
import { optionalEmail } from './fields.ts';
import { captchaToken, optionalNames, optionalPhone, personName } from './forms.ts';
import { DeliverySchema } from './rsvp.ts';
import { FIELD_MAX } from './public-forms.ts';
import { LANGS } from '../lang.ts';
import { PLAN_LINK_ID, PLAN_METHODS, PLAN_TIMES, VOTE_PLAN_MESSAGES } from '../vote-plan.ts';

/*
 * A plan to vote (docs/decisions/158-plan-to-vote.md): one schema for the form, the endpoint and the stored
 * record. Which days are allowed depends on the calendar and the clock: the endpoint checks that
 * (src/lib/server/vote-plans/submit.ts); the schema checks the shape.
 */

/** An empty select ("no preference") is no value. */
const optionalChoice = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .union([z.literal(''), z.enum(values)])
    .optional()
    .transform((v) => (v ? v : undefined));

/** POST /api/vote-plan. */
export const VotePlanInputSchema = z
  .strictObject({
    day: z.string(VOTE_PLAN_MESSAGES.day).regex(/^\d{4}-\d{2}-\d{2}$/, VOTE_PLAN_MESSAGES.day),
    method: z.enum(PLAN_METHODS, VOTE_PLAN_MESSAGES.method),
    timeOfDay: optionalChoice(PLAN_TIMES),
    /** Whom they will bring (free text, optional). */
    bringing: optionalNames(200)
      .optional()
      .transform((v) => (v ? v : undefined)),
    name: personName(FIELD_MAX.name, VOTE_PLAN_MESSAGES.name),
    phone: optionalPhone,
    email: optionalEmail,
    /** Text reminders (unchecked by default); needs the phone. */
    smsConsent: z.boolean().default(false),
    /** Email reminders (unchecked by default); needs the email. */
    emailConsent: z.boolean().default(false),
    captcha: captchaToken,
    lang: z.enum(LANGS).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.phone && !v.email)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: VOTE_PLAN_MESSAGES.contact });
    if (v.smsConsent && !v.phone)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: VOTE_PLAN_MESSAGES.phoneForSms });
    if (v.emailConsent && !v.email)
      ctx.addIssue({ code: 'custom', path: ['email'], message: VOTE_PLAN_MESSAGES.emailForEmail });
  });
export type VotePlanInput = z.input<typeof VotePlanInputSchema>;
export type VotePlanData = z.output<typeof VotePlanInputSchema>;

/**
 * POST /api/vote-plan/update: the plan page's buttons ("I voted", "Stop my reminders", "Resume my reminders") and its
 * "Change my plan" form (day, method and time of day; the link is the proof the plan is the voter's).
 */
export const VotePlanUpdateSchema = z
  .strictObject({
    id: z.string(VOTE_PLAN_MESSAGES.badLink).regex(PLAN_LINK_ID, VOTE_PLAN_MESSAGES.badLink),
    action: z.enum(['voted', 'stop', 'resume', 'change']),
    day: z
      .string(VOTE_PLAN_MESSAGES.day)
      .regex(/^(\d{4}-\d{2}-\d{2})?$/, VOTE_PLAN_MESSAGES.day)
      .optional(),
    method: optionalChoice(PLAN_METHODS),
    timeOfDay: optionalChoice(PLAN_TIMES),
    lang: z.enum(LANGS).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action !== 'change') return;
    if (!v.day) ctx.addIssue({ code: 'custom', path: ['day'], message: VOTE_PLAN_MESSAGES.day });
    if (!v.method) ctx.addIssue({ code: 'custom', path: ['method'], message: VOTE_PLAN_MESSAGES.method });
  });
export type VotePlanUpdateData = z.output<typeof VotePlanUpdateSchema>;

/** A consent as it was given: the exact words beside the box, their version, when. */
export const GivenConsentSchema = z.object({ at: z.string(), text: z.string(), version: z.string() });
export type GivenConsent = z.infer<typeof GivenConsentSchema>;

/**
 * One voter's plan (store `vote-plans`, key `plan/<round>/<sha256 of the phone, else the email>`): the first plan
 * from a contact; it changes only from its own link (a later pledge is held apart under `pledge/<round>/<linkId>`
 * in the same shape). Reminder deliveries are claimed here under compare-and-set.
 */
export const StoredVotePlanSchema = z.object({
  id: z.string().regex(/^[a-f0-9]{64}$/),
  round: z.enum(['primary', 'runoff']),
  /** The link's random id (`link/<linkId>` points here): the proof that the plan is the voter's. */
  linkId: z.string().regex(PLAN_LINK_ID),
  day: z.string(),
  method: z.enum(PLAN_METHODS),
  timeOfDay: z.enum(PLAN_TIMES).nullable(),
  bringing: z.string().nullable(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  lang: z.enum(LANGS),
  /** Text reminders: the consent given with this plan (also in the text list's consent log), or null. */
  smsConsent: GivenConsentSchema.nullable(),
  /** Email reminders: the consent given with this plan, or null. */
  emailConsent: GivenConsentSchema.nullable(),
  /** "I voted" (from the plan page): no Election Day morning reminder. */
  votedAt: z.string().nullable(),
  /** "Stop reminders" (from the plan page or an email's stop link): no reminder of either kind. */
  stoppedAt: z.string().nullable(),
  eveEmail: DeliverySchema.nullable(),
  eveSms: DeliverySchema.nullable(),
  morningEmail: DeliverySchema.nullable(),
  morningSms: DeliverySchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type StoredVotePlan = z.infer<typeof StoredVotePlanSchema>;

/** A row of the staff list (GET /api/admin/vote-plans). */
export type VotePlanRow = Omit<StoredVotePlan, 'linkId' | 'ip' | 'userAgent'>;

export interface VotePlanPage {
  items: VotePlanRow[];
  page: number;
  pageSize: number;
  /** Whether another page follows. */
  more: boolean;
}
