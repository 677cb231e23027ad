import type { CampaignEvent } from './event.ts';

/**
 * Event rules that need no schema library, kept free of zod so the public
 * events function can use them without loading it (re-exported from event.ts).
 */

type Schedulable = Pick<CampaignEvent, 'isPublic' | 'eventDate' | 'startTime'>;

/** Public events whose date is today or later (campaign time zone), soonest first. */
export function upcomingPublicEvents<T extends Schedulable>(events: T[], today: string, limit?: number): T[] {
  const list = events
    .filter((e) => e.isPublic && e.eventDate >= today)
    .sort((a, b) => (a.eventDate + a.startTime).localeCompare(b.eventDate + b.startTime));
  return limit === undefined ? list : list.slice(0, limit);
}
