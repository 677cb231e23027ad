import { key } from '../storage/keys.ts';

/**
 * The key of one person's RSVP (store `rsvps`). Its own module so the text
 * guard (src/lib/server/texting/text-guard.ts) can read an RSVP's reminder
 * consent without importing the RSVP flow, which sends through the guard.
 */
export const rsvpKey = (eventId: number, id: string) => key('rsvp', eventId, id);

/** One volunteer's sign-up to an event's shifts (docs/decisions/181-shifts.md; shifts.ts). */
export const shiftRecordKey = (eventId: number, id: string) => key('shift', eventId, id);
