import { z } from './zod.ts';
import { fieldMask, PUBLIC_FIELDS } from './public-fields.ts';
import { IDENTITY } from '../../content/identity.ts';
import { requiredText, text, optionalUrl, isoDate, time24, email } from './fields.ts';

export const EVENT_TYPES = ['town_hall', 'fundraiser', 'community_event', 'debate', 'rally'] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

export const EVENT_TYPE_LABELS: Record<EventType, string> = {
  town_hall: 'Town Hall',
  fundraiser: 'Fundraiser',
  community_event: 'Community Event',
  debate: 'Debate',
  rally: 'Rally',
};

/** Default contact for a new event (spec section 3). */
export const DEFAULT_EVENTS_EMAIL: string = IDENTITY.emails.events;

export const EventInputSchema = z
  .strictObject({
    title: requiredText(200, 'Title is required'),
    description: text(5000, { multiline: true }).default(''),
    location: requiredText(300, 'Location is required'),
    eventDate: isoDate,
    startTime: time24,
    endTime: z
      .union([z.literal(''), time24])
      .optional()
      .transform((v) => v ?? ''),
    eventType: EventTypeSchema,
    isPublic: z.boolean().default(true),
    /** Empty or null means unlimited. */
    maxAttendees: z
      .union([z.null(), z.literal(''), z.coerce.number().int().min(1).max(1_000_000)])
      .optional()
      .transform((v) => (typeof v === 'number' ? v : null)),
    registrationRequired: z.boolean().default(false),
    registrationUrl: optionalUrl,
    contactEmail: z
      .union([z.literal(''), email])
      .optional()
      .transform((v) => v || DEFAULT_EVENTS_EMAIL),
    /** Internal: staff only, never in a public answer (PublicEventSchema). */
    notes: text(5000, { multiline: true }).default(''),
    expectedUpdatedAt: z.string().max(40).optional(),
  })
  .refine((e) => !e.endTime || e.endTime >= e.startTime, {
    message: 'End time must be after the start time',
    path: ['endTime'],
  });
export type EventInput = z.input<typeof EventInputSchema>;

export const EventSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  description: z.string(),
  location: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  eventType: EventTypeSchema,
  isPublic: z.boolean(),
  maxAttendees: z.number().int().nullable(),
  registrationRequired: z.boolean(),
  registrationUrl: z.string(),
  contactEmail: z.string(),
  notes: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignEvent = z.infer<typeof EventSchema>;

/**
 * What anyone may see of an event: GET /api/events, the .ics feed and the blog
 * answer with exactly these fields (PUBLIC_FIELDS.event, shared with the
 * zod-free projection); parsing strips every other key.
 */
export const PublicEventSchema = EventSchema.pick(fieldMask(PUBLIC_FIELDS.event));
export type PublicEvent = z.infer<typeof PublicEventSchema>;

export { toPublicEvent } from './public-fields.ts';

/** GET /api/events. */
export const PublicEventsResponseSchema = z.object({ events: z.array(PublicEventSchema) });

/** Public events from a day on, soonest first (zod-free module, used by the public events function). */
export { upcomingPublicEvents } from './event-rules.ts';
