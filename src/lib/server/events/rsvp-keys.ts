import { key } from '../storage/keys.ts';

/**
 * The key of one person's RSVP (store `rsvps`). Its own module so the text
 * guard (src/lib/server/messaging/text-guard.ts) can read an RSVP's reminder
 * consent without importing the RSVP flow, which sends through the guard.
 */
export const rsvpKey = (eventId: number, id: string) => key('rsvp', eventId, id);
