import type { z } from 'zod';
import {
  EventSchema,
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
 * GET /api/events and the ics feed: public events from today on, soonest
 * first (one blob read), in their public projection (no internal fields).
 */
export async function publicEvents(now = new Date()): Promise<PublicEvent[]> {
  return upcomingPublicEvents(await events.view<CampaignEvent[]>('public'), campaignToday(now)).map(
    toPublicEvent,
  );
}

/** Admin list: every event, soonest first. */
export async function adminEvents(): Promise<CampaignEvent[]> {
  return (await events.list()).sort(
    (a, b) => (a.eventDate + a.startTime).localeCompare(b.eventDate + b.startTime) || a.id - b.id,
  );
}

function fields(input: EventData): Omit<CampaignEvent, 'id' | 'createdAt' | 'updatedAt'> {
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

export async function createEvent(input: EventData, now = new Date()): Promise<CampaignEvent> {
  const stamp = now.toISOString();
  return events.create((id) => ({ id, ...fields(input), createdAt: stamp, updatedAt: stamp }));
}

export async function updateEvent(id: number, input: EventData, now = new Date()): Promise<CampaignEvent> {
  const after = await events.update(id, (cur) => {
    if (input.expectedUpdatedAt !== undefined && input.expectedUpdatedAt !== cur.updatedAt)
      throw new ConflictError();
    return { ...cur, ...fields(input), updatedAt: laterStamp(now, cur.updatedAt) };
  });
  if (!after) throw new HttpError(404, 'Event not found');
  return after;
}

export async function deleteEvent(id: number): Promise<void> {
  if (!(await events.remove(id))) throw new HttpError(404, 'Event not found');
}
