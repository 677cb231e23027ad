import { z } from './zod.ts';
import { fieldMask, PUBLIC_FIELDS } from './public-fields.ts';
import { requiredText, text, optionalUrl, isoDate, time24, email } from './fields.ts';
import { LANGS } from '../lang.ts';
import {
  sourceHash,
  translationSource,
  translationsInput,
  translationsOf,
  translationStatus,
  upToDate,
  type TranslationLang,
  type TranslationStatus,
} from './translation.ts';

export const EVENT_TYPES = ['town_hall', 'fundraiser', 'community_event', 'debate', 'rally'] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

/** An event's title and description in another language (docs/decisions/166-spanish.md), as the dashboard sends them. */
export const EventTranslationInputSchema = z.strictObject({
  title: requiredText(200, 'Spanish title is required'),
  description: text(5000, { multiline: true }).default(''),
  upToDate,
});
export type EventTranslationInput = z.input<typeof EventTranslationInputSchema>;

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
    /** Empty means the campaign's events address (DEFAULT_EVENTS_EMAIL), filled in by the server on save. */
    contactEmail: z
      .union([z.literal(''), email])
      .optional()
      .transform((v) => v ?? ''),
    /** Internal: staff only, never in a public answer (PublicEventSchema). */
    notes: text(5000, { multiline: true }).default(''),
    expectedUpdatedAt: z.string().max(40).optional(),
    /** Versions in other languages: a new one, null to remove it; left out, the stored one stays. */
    translations: translationsInput(EventTranslationInputSchema),
  })
  .refine((e) => !e.endTime || e.endTime >= e.startTime, {
    message: 'End time must be after the start time',
    path: ['endTime'],
  })
  .superRefine((e, ctx) => {
    // A translation with a title but no description would show the English one on a Spanish page.
    for (const [lang, t] of Object.entries(e.translations ?? {}))
      if (t && e.description && !t.description)
        ctx.addIssue({
          code: 'custom',
          message: 'Please add the Spanish description too, or remove the Spanish version',
          path: ['translations', lang, 'description'],
        });
  });
export type EventInput = z.input<typeof EventInputSchema>;

/** A stored event translation: the text, and which English it was made from. */
export const EventTranslationSchema = z.object({
  title: z.string(),
  description: z.string(),
  ...translationSource,
});
export type EventTranslation = z.infer<typeof EventTranslationSchema>;

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
  /** Versions in other languages (docs/decisions/166-spanish.md), each with the fingerprint of the English it follows. */
  translations: translationsOf(EventTranslationSchema),
});
export type CampaignEvent = z.infer<typeof EventSchema>;

/** The fingerprint of the English an event's translations follow: title and description. */
export const eventSourceHash = (e: Pick<CampaignEvent, 'title' | 'description'>): string =>
  sourceHash([e.title, e.description]);

/** missing, current, or stale (the English title or description changed since). */
export function eventTranslationStatus(
  e: Pick<CampaignEvent, 'title' | 'description' | 'translations'>,
  lang: TranslationLang,
): TranslationStatus {
  return translationStatus(e.translations[lang], eventSourceHash(e));
}

/**
 * What anyone may see of an event: GET /api/events, the .ics feed and the blog
 * answer with exactly these fields (PUBLIC_FIELDS.event, shared with the
 * zod-free projection); parsing strips every other key.
 */
export const PublicEventSchema = EventSchema.pick(fieldMask(PUBLIC_FIELDS.event)).extend({
  /** The language of title and description: the one asked for when the event has it, else English. */
  lang: z.enum(LANGS),
});
export type PublicEvent = z.infer<typeof PublicEventSchema>;

/** GET /api/events. */
export const PublicEventsResponseSchema = z.object({ events: z.array(PublicEventSchema) });

/** Public events from a day on, soonest first (zod-free module, used by the public events function). */
export { upcomingPublicEvents } from './event-rules.ts';
