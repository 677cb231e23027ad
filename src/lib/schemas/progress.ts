import { z } from './zod.ts';
import { fieldMask, PUBLIC_FIELDS } from './public-fields.ts';
import { text, intOr, isoDate } from './fields.ts';

/** Admin number fields parse as integers, falling back to 0 (spec section 5). */
const int0 = z.unknown().transform((v) => Math.max(0, intOr(v, 0)));

export const MetricSchema = z.object({
  id: z.number().int().positive(),
  currentValue: z.number().int(),
  targetValue: z.number().int(),
  label: z.string(),
  sublabel: z.string(),
  description: z.string(),
  trend: z.string(),
  /**
   * Shown on the public site (the volunteer page) and in /api/campaign-metrics.
   * Off until staff turn it on: a new campaign's zeros are not for voters.
   */
  isPublic: z.boolean().default(false),
  updatedAt: z.string(),
});
export type Metric = z.infer<typeof MetricSchema>;

export const MetricUpdateSchema = z.strictObject({
  currentValue: int0,
  targetValue: int0,
  label: text(120),
  sublabel: text(200).default(''),
  description: text(1000, { multiline: true }).default(''),
  trend: text(60).default(''),
  /** Optional: omitted keeps the current setting. */
  isPublic: z.boolean().optional(),
});
export type MetricUpdate = z.input<typeof MetricUpdateSchema>;

export const PRIORITIES = ['low', 'medium', 'high'] as const;
export const GoalPrioritySchema = z.enum(PRIORITIES);

export const VolunteerGoalSchema = z.object({
  id: z.number().int().positive(),
  currentCount: z.number().int(),
  targetCount: z.number().int(),
  deadline: z.string(),
  description: z.string(),
  priority: GoalPrioritySchema,
  updatedAt: z.string(),
});
export type VolunteerGoal = z.infer<typeof VolunteerGoalSchema>;

export const VolunteerGoalUpdateSchema = z.strictObject({
  currentCount: int0,
  targetCount: int0,
  deadline: isoDate,
  description: text(500, { multiline: true }),
  priority: GoalPrioritySchema,
});
export type VolunteerGoalUpdate = z.input<typeof VolunteerGoalUpdateSchema>;

export const MilestoneSchema = z.object({
  id: z.number().int().positive(),
  currentCount: z.number().int(),
  targetCount: z.number().int().nullable(),
  label: z.string(),
  description: z.string(),
  /** Shown on the public site; off until staff turn it on (as for metrics). */
  isPublic: z.boolean().default(false),
  updatedAt: z.string(),
});
export type Milestone = z.infer<typeof MilestoneSchema>;

export const MilestoneUpdateSchema = z.strictObject({
  currentCount: int0,
  /** Optional: empty or missing means no target. */
  targetCount: z
    .unknown()
    .optional()
    .transform((v) => (v === undefined || v === null || v === '' ? null : Math.max(0, intOr(v, 0)))),
  label: text(120),
  description: text(500, { multiline: true }).default(''),
  /** Optional: omitted keeps the current setting. */
  isPublic: z.boolean().optional(),
});
export type MilestoneUpdate = z.input<typeof MilestoneUpdateSchema>;

/**
 * GET /api/campaign-metrics: the public figures. Every displayed field is
 * public; internal is only when staff last edited each record (updatedAt).
 */
export const PublicMetricSchema = MetricSchema.pick(fieldMask(PUBLIC_FIELDS.metric));
export const PublicVolunteerGoalSchema = VolunteerGoalSchema.pick(fieldMask(PUBLIC_FIELDS.goal));
export const PublicMilestoneSchema = MilestoneSchema.pick(fieldMask(PUBLIC_FIELDS.milestone));
export const PublicProgressResponseSchema = z.object({
  metrics: z.array(PublicMetricSchema),
  goals: z.array(PublicVolunteerGoalSchema),
  milestones: z.array(PublicMilestoneSchema),
});
export type PublicProgress = z.infer<typeof PublicProgressResponseSchema>;
