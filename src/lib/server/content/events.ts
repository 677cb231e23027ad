import type { z } from 'zod';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import {
  EventSchema,
  eventSourceHash,
  toPublicEvent,
  upcomingPublicEvents,
  type CampaignEvent,
  type EventInputSchema,
  type PublicEvent,
} from '../../schemas/event.ts';
import { HttpError } from '../errors.ts';
import { ConflictError } from '../store.ts';
import { laterStamp } from './articles.ts';
import { Collection } from './collection.ts';
import { nextTranslations } from './translations.ts';

export type EventData = z.output<typeof EventInputSchema>;

/** The campaign's calendar day (New Orleans), YYYY-MM-DD. */
export function campaignToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Public view, derived at write time: public events from yesterday on (a day
 * of margin for clocks and time zones). Reads drop the ones that have passed.
 */
function publicView(items: CampaignEvent[]): CampaignEvent[] {
  return upcomingPublicEvents(items, campaignToday(new Date(Date.now() - DAY_MS)));
}

export const events = new Collection<CampaignEvent>({
  store: 'events',
  counter: 'events',
  schema: EventSchema,
  views: { public: publicView },
});

/**
 * GET /api/events (`?lang=es`) and the ics feed: public events from today on,
 * soonest first (one blob read), in their public projection (no internal
 * fields), with each event's title and description in `lang` where it has
 * them, else English (`lang` on each says which).
 */
export async function publicEvents(lang: Lang = DEFAULT_LANG, now = new Date()): Promise<PublicEvent[]> {
  // The view is stored derived data: parsed like a record, so one written before a field existed reads with its default.
  const view = (await events.view<unknown[]>('public')).flatMap((raw) => {
    const parsed = EventSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
  return upcomingPublicEvents(view, campaignToday(now)).map((e) => toPublicEvent(e, lang));
}

/** Admin list: every event, soonest first. */
export async function adminEvents(): Promise<CampaignEvent[]> {
  return (await events.list()).sort(
    (a, b) => (a.eventDate + a.startTime).localeCompare(b.eventDate + b.startTime) || a.id - b.id,
  );
}

function fields(input: EventData): Omit<CampaignEvent, 'id' | 'createdAt' | 'updatedAt' | 'translations'> {
  return {
    title: input.title,
    description: input.description,
    location: input.location,
    eventDate: input.eventDate,
    startTime: input.startTime,
    endTime: input.endTime,
    eventType: input.eventType,
    isPublic: input.isPublic,
    maxAttendees: input.maxAttendees,
    registrationRequired: input.registrationRequired,
    registrationUrl: input.registrationUrl,
    contactEmail: input.contactEmail,
    notes: input.notes,
  };
}

/** The translations an event save leaves (see nextTranslations): made from the English being saved. */
function translationsAfter(
  cur: Pick<CampaignEvent, 'translations'>,
  input: EventData,
  english: CampaignEvent,
) {
  return nextTranslations(
    cur.translations,
    input.translations,
    (t) => ({ title: t.title, description: t.description }),
    {
      sourceHash: eventSourceHash(english),
      sourceUpdatedAt: english.updatedAt,
      updatedAt: english.updatedAt,
    },
  );
}

export async function createEvent(input: EventData, now = new Date()): Promise<CampaignEvent> {
  const stamp = now.toISOString();
  return events.create((id) => {
    const english: CampaignEvent = {
      id,
      ...fields(input),
      createdAt: stamp,
      updatedAt: stamp,
      translations: {},
    };
    return { ...english, translations: translationsAfter(english, input, english) };
  });
}

export async function updateEvent(id: number, input: EventData, now = new Date()): Promise<CampaignEvent> {
  const after = await events.update(id, (cur) => {
    if (input.expectedUpdatedAt !== undefined && input.expectedUpdatedAt !== cur.updatedAt)
      throw new ConflictError();
    const english: CampaignEvent = { ...cur, ...fields(input), updatedAt: laterStamp(now, cur.updatedAt) };
    return { ...english, translations: translationsAfter(cur, input, english) };
  });
  if (!after) throw new HttpError(404, 'Event not found');
  return after;
}

export async function deleteEvent(id: number): Promise<void> {
  if (!(await events.remove(id))) throw new HttpError(404, 'Event not found');
}
