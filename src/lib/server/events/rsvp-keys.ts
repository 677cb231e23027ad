import { key } from '../storage/keys.ts';

/**
 * The key of one person's RSVP (store `rsvps`), read by the RSVP flow and by the
 * reminders' consent reader (events/reminders.ts, asked by the text guard).
 */
export const rsvpKey = (eventId: number, id: string) => key('rsvp', eventId, id);

/** One volunteer's sign-up to an event's shifts (docs/decisions/181-shifts.md; shifts.ts). */
export const shiftRecordKey = (eventId: number, id: string) => key('shift', eventId, id);
