import type { APIRoute } from 'astro';
import { copyFor } from '../content/copy';
import { electionIcsEvents } from '../lib/election-ics';
import { buildCalendar } from '../lib/ics';
import { publicEvents } from '../lib/server/content/events';
import { getElectionCalendar } from '../lib/server/election/calendar';
import { cdnHeaders } from '../lib/server/public/feeds';
import { calendarName } from '../lib/server/public/event-calendar';

export const prerender = false;

/**
 * Subscribable iCalendar feed of the public upcoming events and the election's dates (RFC 5545; the election's:
 * docs/decisions/157-election-calendar.md).
 */
export const GET: APIRoute = async ({ site, url }) => {
  try {
    const origin = site ?? new URL(url.origin);
    const [events, { calendar }] = await Promise.all([publicEvents(), getElectionCalendar()]);
    const election = electionIcsEvents(calendar, copyFor('en').vote.icsWords, new URL('/vote', origin).href);
    const ics = buildCalendar([...election, ...events], {
      name: calendarName('en'),
      uidHost: origin.hostname,
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
