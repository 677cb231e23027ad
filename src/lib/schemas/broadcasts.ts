import { z } from './zod.ts';
import { LANGS } from '../lang.ts';
import { PeopleFilterSchema } from './people-filter.ts';
import { ARTICLE_HTML_MAX, ATTENDEE_STATUSES, AUDIENCE_KINDS, OUTCOMES } from './broadcast-rules.ts';

/**
 * Broadcasts: texts and emails staff send to the lists the site gathers
 * (docs/decisions/152-broadcasts.md). What staff compose is the
 * input; what the store keeps adds the status, who approved it and the run.
 */

export const BROADCAST_CHANNELS = ['text', 'email'] as const;
export type BroadcastChannel = (typeof BROADCAST_CHANNELS)[number];

export {
  AUDIENCE_KINDS,
  ATTENDEE_STATUSES,
  OUTCOMES,
  type AudienceKind,
  type Outcome,
} from './broadcast-rules.ts';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2025-10-01')
  .optional()
  .or(z.literal('').transform(() => undefined));

/** Who receives it, and the filters (each optional; all that are set must hold). */
export const AudienceSchema = z.strictObject({
  kind: z.enum(AUDIENCE_KINDS),
  /** An event's attendees: which event, and which of them. */
  eventId: z.number().int().positive().optional(),
  attendeeStatuses: z.array(z.enum(ATTENDEE_STATUSES)).max(3).optional(),
  lang: z.enum(LANGS).optional(),
  /** City or ZIP (matched whole, case-insensitively; records without one never match). */
  place: z.string().trim().max(60).optional(),
  /** Part of the sign-up page or its refcode (e.g. "/volunteer" or "ref=doors"). */
  source: z.string().trim().max(200).optional(),
  signedUpFrom: day,
  signedUpTo: day,
  /** People: the People filters (docs/decisions/149-people.md), e.g. volunteers in 70119 not RSVP'd to event X. */
  people: PeopleFilterSchema.optional(),
  /**
   * People: nearest to this 5-digit ZIP first (a staffing gap's site), people without a known ZIP last
   * (docs/decisions/181-shifts.md). It orders; it leaves no one out.
   */
  near: z
    .string()
    .regex(/^\d{5}$/, 'A ZIP is 5 digits')
    .optional(),
});
export type Audience = z.output<typeof AudienceSchema>;

export const TextContentSchema = z.strictObject({
  /** The English text; `{firstName}` is replaced by the recipient's first name or the fallback. */
  body: z.string().trim().min(1, 'Please write the text').max(1200),
  /** The Spanish text for recipients whose stored language is Spanish (empty: they get the English). */
  bodyEs: z.string().trim().max(1200).default(''),
  firstNameFallback: z.string().trim().max(40).default('friend'),
});
export type TextContent = z.output<typeof TextContentSchema>;

export const EmailContentSchema = z.strictObject({
  subject: z.string().trim().min(1, 'Please write a subject').max(200),
  subjectEs: z.string().trim().max(200).default(''),
  preview: z.string().trim().max(200).default(''),
  previewEs: z.string().trim().max(200).default(''),
  /** The article editor's allowlisted HTML (sanitised on save, like an article). */
  html: z.string().min(1, 'Please write the email').max(ARTICLE_HTML_MAX),
  htmlEs: z.string().max(ARTICLE_HTML_MAX).default(''),
  firstNameFallback: z.string().trim().max(40).default('friend'),
});
export type EmailContent = z.output<typeof EmailContentSchema>;

/** What a subject with a line break is told (a subject is one header line; docs/decisions/075-names-are-not-a-channel.md). */
export const SUBJECT_ONE_LINE_MESSAGE = 'A subject is one line: remove the line break';
/** Line breaks and every other control or separator character a header line cannot hold. */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u;

/** A draft as staff save it (create and update). */
export const BroadcastInputSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'Please name the broadcast').max(120),
    channel: z.enum(BROADCAST_CHANNELS),
    audience: AudienceSchema,
    text: TextContentSchema.optional(),
    email: EmailContentSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.channel === 'text' && !b.text)
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'Please write the text' });
    if (b.channel === 'email' && !b.email)
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'Please write the email' });
    // Refused on input only: the stored shape reads every broadcast saved before the rule.
    for (const field of ['subject', 'subjectEs'] as const)
      if (b.email && NOT_ONE_LINE.test(b.email[field]))
        ctx.addIssue({ code: 'custom', path: ['email', field], message: SUBJECT_ONE_LINE_MESSAGE });
    if (b.channel === 'email' && b.audience.kind === 'text_subscribers')
      ctx.addIssue({
        code: 'custom',
        path: ['audience', 'kind'],
        message: 'Text subscribers agreed to texts, not email',
      });
    if (b.channel === 'text' && b.audience.kind === 'newsletter_subscribers')
      ctx.addIssue({
        code: 'custom',
        path: ['audience', 'kind'],
        message: 'Newsletter subscribers agreed to email, not texts',
      });
    if (b.audience.kind === 'event_attendees' && !b.audience.eventId)
      ctx.addIssue({ code: 'custom', path: ['audience', 'eventId'], message: 'Please choose the event' });
  });
export type BroadcastInput = z.output<typeof BroadcastInputSchema>;

export const BROADCAST_STATUSES = [
  'draft',
  /** The delivery job is turning the audience into the queue (recipient count, segments, cost). */
  'preparing',
  /** Queued and counted: an admin may send or schedule it. */
  'ready',
  'scheduled',
  'sending',
  'paused',
  'cancelled',
  'completed',
] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** Send and schedule without the version the admin reviewed (docs/decisions/152-broadcasts.md). */
export const BROADCAST_VERSION_REQUIRED =
  'Please review the broadcast before approving it: the version you reviewed is missing';

/**
 * The version (content hash, src/lib/server/broadcasts/version.ts) of the broadcast the admin reviewed:
 * approving names it, and a broadcast that changed since is not sent.
 */
export const BroadcastVersionSchema = z
  .string({ error: BROADCAST_VERSION_REQUIRED })
  .regex(/^[0-9a-f]{64}$/, 'Not a broadcast version');

/** The bodies of the two approvals: send now, or schedule at a time. */
export const SendBodySchema = z.strictObject({ version: BroadcastVersionSchema });
export const ScheduleBodySchema = z.strictObject({
  at: z.iso.datetime({ offset: true }),
  version: BroadcastVersionSchema,
});

/** The send actions. */
export const BroadcastActionSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('prepare') }),
  z.strictObject({ action: z.literal('send'), version: BroadcastVersionSchema }),
  z.strictObject({
    action: z.literal('schedule'),
    at: z.iso.datetime({ offset: true }),
    version: BroadcastVersionSchema,
  }),
  z.strictObject({ action: z.literal('pause') }),
  z.strictObject({ action: z.literal('resume') }),
  z.strictObject({ action: z.literal('cancel') }),
]);
export type BroadcastAction = z.output<typeof BroadcastActionSchema>;

/** A test send goes to the sender's own phone (given) or email (the account's; `to` may repeat it). */
export const TestSendSchema = z.strictObject({
  to: z.string().trim().min(3).max(254).optional(),
  lang: z.enum(LANGS).default('en'),
});

/** One queue chunk: part of one source page, one zone bucket (src/lib/server/broadcasts/queue.ts). */
export const ChunkStateSchema = z.object({
  id: z.string(),
  bucket: z.string(),
  size: z.number().int().min(0),
  /** The next recipient index to process. */
  next: z.number().int().min(0),
  done: z.boolean(),
  lease: z.object({ owner: z.string(), until: z.number() }).nullable(),
});
export type ChunkState = z.infer<typeof ChunkStateSchema>;

export const RunStateSchema = z.object({
  /** A new preparation starts a new generation: chunks of an older one are ignored. */
  gen: z.number().int().min(0),
  /** Source pages turned into chunks so far, and whether the audience is all queued. */
  pages: z.number().int().min(0),
  /** Who is turning the audience into chunks (one job at a time). */
  resolver: z.object({ owner: z.string(), until: z.number() }).nullable(),
  /** Text segments (emails: messages) the queued recipients will cost, counted while queuing. */
  segments: z.number().int().min(0),
  /** Recipients per language, counted while queuing. */
  spanish: z.number().int().min(0),
  resolved: z.boolean(),
  recipients: z.number().int().min(0),
  chunks: z.array(ChunkStateSchema),
  counts: z.record(z.enum(OUTCOMES), z.number().int().min(0)),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type RunState = z.infer<typeof RunStateSchema>;

export const StoredBroadcastSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  channel: z.enum(BROADCAST_CHANNELS),
  audience: AudienceSchema,
  text: TextContentSchema.optional(),
  email: EmailContentSchema.optional(),
  status: z.enum(BROADCAST_STATUSES),
  scheduledAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  /** The version the admin approved (send or schedule); resuming checks the content still has it. */
  approvedVersion: z.string().nullable().default(null),
  run: RunStateSchema,
});
export type StoredBroadcast = z.infer<typeof StoredBroadcastSchema>;
/** A broadcast as written (the version approved may be left out: none yet). */
export type StoredBroadcastInput = z.input<typeof StoredBroadcastSchema>;
