import type { z } from 'zod';
import {
  EventSchema,
  eventSourceHash,
  type CampaignEvent,
  type EventInputSchema,
} from '../../schemas/event.ts';
import { DEFAULT_EVENTS_EMAIL } from '../../../content/identity.ts';
import { HttpError } from '../errors.ts';
import { ConflictError } from '../storage/compare-and-set.ts';
import { laterStamp } from './stamps.ts';
import { Collection } from '../storage/collection.ts';
import { nextTranslations } from './translations.ts';
import { EVENTS_LAYOUT } from './events-public.ts';

export type EventData = z.output<typeof EventInputSchema>;

export { campaignToday, publicEvents } from './events-public.ts';

export const events = new Collection<CampaignEvent>({ ...EVENTS_LAYOUT, schema: EventSchema });

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
    contactEmail: input.contactEmail || DEFAULT_EVENTS_EMAIL,
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
