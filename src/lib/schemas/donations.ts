import { z } from './zod.ts';
import { isoDate, text } from './fields.ts';

/**
 * Donations: what ActBlue's webhooks send, what we keep of it, and what the
 * dashboard and the public goal read back. Shared by the webhook, the admin
 * endpoints and the dashboard (docs/decisions/165-donations.md).
 */

// ---------------------------------------------------------------------------
// ActBlue webhook payload (the "ActBlue Default" JSON: donor, contribution, lineitems, form)

/**
 * A dollar amount as ActBlue sends it ("25.00", sometimes a number) to whole
 * cents. A refund may carry its amount negated ("-25.00"): the sign is kept
 * here and the ledger stores the size (the notification's kind says what it
 * is). Non-numeric, over-precise or absurd amounts are refused.
 */
const dollarsToCents = z.union([z.string().trim().max(20), z.number()]).transform((v, ctx) => {
  const s = typeof v === 'number' ? String(v) : v;
  if (!/^-?\d{1,7}(\.\d{1,2})?$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: 'Invalid amount' });
    return z.NEVER;
  }
  return Math.round(Number(s) * 100);
});

const timestamp = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'Invalid timestamp');

/** Refcodes and UTM values: short labels; longer ones are cut, not refused (they come from URLs). */
const label = z
  .string()
  .max(2000)
  .transform((s) => s.trim().slice(0, 100));

/** One line item: ActBlue sends one notification per line item (docs: "Events and payloads"). */
export const ActBlueLineItemSchema = z.object({
  sequence: z.number().int().nullish(),
  entityId: z.number().int().nullish(),
  amount: dollarsToCents,
  recurringAmount: z.union([z.string(), z.number()]).nullish(),
  paidAt: timestamp.nullish(),
  paymentId: z.union([z.number(), z.string().max(64)]).nullish(),
  lineitemId: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)]).nullish(),
  /** Refund notifications carry the refund time on the line item. */
  refundedAt: timestamp.nullish(),
});

export const ActBlueContributionSchema = z.object({
  /** "AB12345678": the receipt number, our idempotency key. */
  orderNumber: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid order number'),
  createdAt: timestamp,
  refcode: label.nullish(),
  refcode2: label.nullish(),
  /** Every refcode of the form URL (refcode, refcode2, refcode_<anything>). */
  refcodes: z
    .record(z.string().max(100), label.nullable())
    .refine((r) => Object.keys(r).length <= 50, 'Too many refcodes')
    .nullish(),
  recurringPeriod: z.string().max(40).nullish(),
  recurringDuration: z.union([z.number(), z.string().max(20)]).nullish(),
  isRecurring: z.union([z.boolean(), z.string().max(10)]).nullish(),
  status: z.string().max(40).nullish(),
  /** Cancellation notifications of a recurring series. */
  cancelledAt: timestamp.nullish(),
  refundedAt: timestamp.nullish(),
});

/**
 * The body of every ActBlue notification (contributions, refunds,
 * cancellations). A provider's payload grows over time, so fields we do not
 * use are dropped rather than refused; the ones we use are validated.
 */
export const ActBlueWebhookSchema = z.object({
  donor: z
    .object({ email: z.string().max(254).nullish() })
    .nullish()
    .transform((d) => d ?? null),
  contribution: ActBlueContributionSchema,
  lineitems: z.array(ActBlueLineItemSchema).min(1, 'No line items').max(50),
});
export type ActBlueWebhook = z.output<typeof ActBlueWebhookSchema>;

/** What a notification means for the contributions it names. */
export const WEBHOOK_KINDS = ['contribution', 'refund', 'cancellation'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

// ---------------------------------------------------------------------------
// Stored contribution (store `donations`, key `contribution/<orderNumber>-<lineitemId>`)

const iso = z.string().min(1);
const nullableLabel = z.string().max(100).nullable();

/** The minimum the dashboard needs: no name, address, employer, email or phone. */
export const StoredContributionSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]+$/),
  orderNumber: z.string(),
  lineitemId: z.string(),
  amountCents: z.number().int().nonnegative(),
  paidAt: iso,
  /** Campaign-local day (CAMPAIGN_TIME_ZONE) the gift counts for. */
  day: isoDate,
  refcode: nullableLabel,
  refcode2: nullableLabel,
  utmSource: nullableLabel,
  utmMedium: nullableLabel,
  utmCampaign: nullableLabel,
  recurring: z.boolean(),
  recurringPeriod: z.string().max(40).nullable(),
  /** HMAC of the normalised donor email: counts repeat donors, reveals no one. */
  donorKey: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .nullable(),
  status: z.enum(['paid', 'refunded']),
  refundedAt: iso.nullable(),
  /** The recurring series this payment belongs to was cancelled (past payments stand). */
  cancelledAt: iso.nullable(),
  receivedAt: iso,
  updatedAt: iso,
});
export type StoredContribution = z.infer<typeof StoredContributionSchema>;

// ---------------------------------------------------------------------------
// Aggregates and the dashboard summary

/** Money of one group: gifts and their amount, refunds among them and theirs. */
export const BucketSchema = z.object({
  count: z.number().int(),
  grossCents: z.number().int(),
  refunds: z.number().int(),
  refundedCents: z.number().int(),
});
export type Bucket = z.infer<typeof BucketSchema>;

export const DIMENSIONS = ['refcode', 'utmSource', 'utmMedium', 'utmCampaign'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const DIMENSION_LABELS: Record<Dimension | 'day' | 'kind', string> = {
  refcode: 'Refcode',
  utmSource: 'UTM source',
  utmMedium: 'UTM medium',
  utmCampaign: 'UTM campaign',
  day: 'Day',
  kind: 'One-time or recurring',
};
/** The group of gifts without a value for a dimension. */
export const NONE_LABEL = '(none)';

const GroupSchema = BucketSchema.extend({ value: z.string() });

/**
 * One campaign day (key `agg/day/<YYYY-MM-DD>`), maintained under
 * compare-and-set by every notification. `applied` records the state each
 * contribution was counted in, so applying a notification twice changes nothing.
 */
export const DayAggregateSchema = z.object({
  day: isoDate,
  total: BucketSchema,
  oneTime: BucketSchema,
  recurring: BucketSchema,
  cancelled: z.number().int(),
  refcode: z.array(GroupSchema),
  utmSource: z.array(GroupSchema),
  utmMedium: z.array(GroupSchema),
  utmCampaign: z.array(GroupSchema),
  applied: z.record(z.string(), z.string()),
});
export type DayAggregate = z.infer<typeof DayAggregateSchema>;

export interface SummaryRow extends Bucket {
  value: string;
  netCents: number;
}

/** GET /api/admin/donations. */
export interface DonationSummary {
  from: string;
  to: string;
  totals: SummaryRow;
  oneTime: SummaryRow;
  recurring: SummaryRow;
  cancelledRecurring: number;
  byDay: SummaryRow[];
  byRefcode: SummaryRow[];
  byUtmSource: SummaryRow[];
  byUtmMedium: SummaryRow[];
  byUtmCampaign: SummaryRow[];
  /** How many day aggregates were read to answer (never one read per gift). */
  daysRead: number;
}

/** Longest range the dashboard asks for in one request. */
export const MAX_RANGE_DAYS = 366;

export const DonationRangeSchema = z
  .object({ from: isoDate, to: isoDate })
  .refine((r) => r.from <= r.to, {
    message: 'The start date must be on or before the end date',
    path: ['to'],
  })
  .refine((r) => (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 < MAX_RANGE_DAYS, {
    message: `Choose a range of at most ${MAX_RANGE_DAYS} days`,
    path: ['from'],
  });

// ---------------------------------------------------------------------------
// Public fundraising goal (off until staff turn it on)

export const GoalInputSchema = z.strictObject({
  enabled: z.boolean(),
  /** Whole dollars. */
  targetDollars: z.coerce
    .number('Enter a goal in dollars')
    .int('Enter whole dollars')
    .min(1, 'Enter a goal of at least $1')
    .max(100_000_000, 'That goal is too large'),
  label: text(120).default(''),
  /** Gifts from this campaign day on count toward the goal ('' = all). */
  since: z.union([z.literal(''), isoDate]).default(''),
});
export type GoalInput = z.input<typeof GoalInputSchema>;

export const StoredGoalSchema = z.object({
  enabled: z.boolean(),
  targetCents: z.number().int().positive(),
  label: z.string(),
  since: z.string(),
  updatedAt: iso,
  updatedBy: z.string(),
});
export type StoredGoal = z.infer<typeof StoredGoalSchema>;

/** GET /api/donations/goal: null while no goal is shown (parsed by publicJson, so nothing else leaves). */
export const PublicGoalResponseSchema = z.object({
  goal: z.object({ label: z.string(), targetCents: z.number(), raisedCents: z.number() }).nullable(),
});
export type PublicGoal = z.infer<typeof PublicGoalResponseSchema>;
