/**
 * Event rules that need no schema library, kept free of zod so the public
 * events function can use them without loading it (re-exported from event.ts).
 */

/** What the rule reads of an event (structural, so this module needs nothing from event.ts). */
interface Schedulable {
  isPublic: boolean;
  eventDate: string;
  startTime: string;
}

/** Public events whose date is today or later (campaign time zone), soonest first. */
export function upcomingPublicEvents<T extends Schedulable>(events: T[], today: string, limit?: number): T[] {
  const list = events
    .filter((e) => e.isPublic && e.eventDate >= today)
    .sort((a, b) => (a.eventDate + a.startTime).localeCompare(b.eventDate + b.startTime));
  return limit === undefined ? list : list.slice(0, limit);
}
