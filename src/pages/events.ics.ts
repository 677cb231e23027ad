import type { APIRoute } from 'astro';
import { buildCalendar } from '../lib/ics';
import { publicEvents } from '../lib/server/content/events';
import { cdnHeaders } from '../lib/server/public/feeds';
import { calendarName } from '../lib/server/public/event-calendar';

export const prerender = false;

/** Subscribable iCalendar feed of the public upcoming events (RFC 5545). */
export const GET: APIRoute = async ({ site, url }) => {
  try {
    const ics = buildCalendar(await publicEvents(), {
      name: calendarName('en'),
      uidHost: (site ?? new URL(url.origin)).hostname,
    });
    return new Response(ics, {
      headers: {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': 'inline; filename="events.ics"',
        ...cdnHeaders('events'),
      },
    });
  } catch (err) {
    console.error('[events.ics] could not read events', err);
    return new Response('Temporarily unavailable', {
      status: 503,
      headers: { 'Retry-After': '30', 'Cache-Control': 'no-store' },
    });
  }
};
