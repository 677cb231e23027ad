import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import * as cancelFn from '../../netlify/functions/rsvp-cancel.mts';
import { EventInputSchema, type EventInput } from '../../src/lib/schemas/event.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { createEvent } from '../../src/lib/server/content/events.ts';
import { uniqueIp } from './forms.ts';
import { call } from './http.ts';

/** A public event that takes RSVPs on the site, a week from `now`. */
export async function rsvpEventFixture(
  maxAttendees: number | null,
  over: Partial<EventInput> = {},
  now = new Date(),
) {
  const date = new Date(now.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
  return createEvent(
    EventInputSchema.parse({
      title: 'Town Hall on Drainage',
      location: 'Mid-City Library, 4140 Canal St',
      eventDate: date,
      startTime: '18:00',
      endTime: '19:30',
      eventType: 'town_hall',
      isPublic: true,
      registrationRequired: true,
      registrationUrl: '',
      maxAttendees,
      ...over,
    }),
  );
}

let n = 0;
export const person = (over: Record<string, unknown> = {}) => {
  n += 1;
  return {
    name: `Guest ${n}`,
    email: `guest${n}-${Math.random().toString(36).slice(2, 6)}@example.org`,
    phone: '',
    guests: 0,
    smsReminder: false,
    captchaResponse: TURNSTILE_TEST_TOKEN,
    ...over,
  };
};

/** An RSVP from its own household (a fresh client IP unless `ip` is given), as people RSVP in production. */
export const rsvpTo = (eventId: number, body: unknown, ip = uniqueIp()) =>
  call(rsvpFn, `/api/events/${eventId}/rsvp`, { json: body, ip });

/** The cancellation link from an email's text. */
export function cancelUrlIn(text: string): URL {
  const m = /(https?:\/\/\S+\/rsvp\/cancel\?\S+)/.exec(text);
  if (!m) throw new Error('no cancellation link');
  return new URL(m[1]!);
}

/** The cancellation link's parts (the body the cancel button posts) from an email's text. */
export function cancelLinkIn(text: string): { event: number; token: string } {
  const u = cancelUrlIn(text);
  return { event: Number(u.searchParams.get('event')), token: u.searchParams.get('token')! };
}

export const cancel = (body: unknown) => call(cancelFn, '/api/rsvp/cancel', { json: body });
