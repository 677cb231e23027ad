import { copyFor } from '../../../content/copy.ts';
import { IDENTITY } from '../../../content/identity.ts';
import { fill } from '../../fill.ts';
import { buildCalendar, icsFileName } from '../../ics.ts';
import type { Lang } from '../../lang.ts';
import { publicEvents } from '../content/events.ts';
import { CACHE_TAGS } from '../content/responses.ts';
import { cdnHeaders } from './feeds.ts';

/** The calendar's name in a language ("Jordan Avery for Mayor Events"), for the feed and each event's file. */
export function calendarName(lang: Lang): string {
  return fill(copyFor(lang).ui.islandUi.calendarName, IDENTITY.smsProgramName);
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });

/**
 * GET /events/{id}/calendar.ics (and /es/...): one upcoming public event as an
 * iCalendar file, in the page's language. The "Add to calendar" link of /blog's
 * event cards and of the event page: a plain link, so it works before the list
 * has hydrated and without JavaScript. Cached like the event pages (tag
 * "events", purged on staff edits); past, private and unknown ids get 404.
 */
export async function eventCalendarResponse(
  raw: string | undefined,
  lang: Lang,
  site: URL,
): Promise<Response> {
  if (!/^\d{1,15}$/.test(raw ?? '')) return text(404, 'Not found');
  let event;
  try {
    event = (await publicEvents(lang)).find((e) => e.id === Number(raw));
  } catch (err) {
    console.error('[event calendar] could not read events', err);
    return text(503, 'Temporarily unavailable', { 'Retry-After': '30', 'Cache-Control': 'no-store' });
  }
  if (!event) return text(404, 'Not found', cdnHeaders(CACHE_TAGS.events));
  return new Response(buildCalendar([event], { name: calendarName(lang), uidHost: site.hostname }), {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="${icsFileName(event)}"`,
      ...cdnHeaders(CACHE_TAGS.events),
    },
  });
}
