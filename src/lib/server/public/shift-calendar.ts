import { IDENTITY } from '../../../content/identity.ts';
import { SHIFT_COPY } from '../../../content/shifts.ts';
import { buildCalendar, type IcsEvent } from '../../ics.ts';
import type { Lang } from '../../lang.ts';
import { localizedPath } from '../../lang-paths.ts';
import { eventPagePath } from '../../schemas/rsvp-rules.ts';
import { SLOT_ID, type ShiftSlot } from '../../schemas/shifts.ts';
import type { PublicEvent } from '../../schemas/event.ts';
import { publicEvents } from '../content/events.ts';
import { CACHE_TAGS } from '../content/responses.ts';
import { getShifts } from '../events/shifts.ts';
import { cdnHeaders } from './feeds.ts';
import { calendarName } from './event-calendar.ts';

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });

/**
 * One shift as a calendar entry (docs/decisions/181-shifts.md, "A shift's calendar file"): the slot's own date and
 * hours, the event's title with the slot's label, the site's name as the place when the slot is at a site (else the
 * event's location), the event page as its link. Every text a person typed (title, label, location) goes through
 * the one RFC 5545 escaping of src/lib/ics.ts: it is data, never a property of the file.
 */
export function shiftIcsEvent(event: PublicEvent, slot: ShiftSlot, pageUrl: string): IcsEvent {
  return {
    id: event.id,
    uid: `shift-${event.id}-${slot.id}`,
    title: slot.label ? `${event.title} (${slot.label})` : event.title,
    description: event.description ?? '',
    location: slot.siteId && slot.label ? slot.label : (event.location ?? ''),
    eventDate: slot.date,
    startTime: slot.start,
    endTime: slot.end,
    registrationUrl: pageUrl,
  };
}

/** A safe download name: `shift-<event>-<slot>.ics` (the slot id is letters, digits and dashes). */
export const shiftIcsFileName = (eventId: number, slot: string) => `shift-${eventId}-${slot}.ics`;

/**
 * GET /events/{id}/shifts/{slot}.ics (and /es/...): one slot of an upcoming public event as an iCalendar file, in
 * the page's language; linked from the sign-up email and beside each shift on the event page. Cached like the
 * event's file; an unknown event or slot is a 404.
 */
export async function shiftCalendarResponse(
  rawId: string | undefined,
  rawSlot: string | undefined,
  lang: Lang,
  site: URL,
): Promise<Response> {
  if (!/^\d{1,15}$/.test(rawId ?? '') || !SLOT_ID.test(rawSlot ?? '')) return text(404, 'Not found');
  const id = Number(rawId);
  let event: PublicEvent | undefined;
  let slot: ShiftSlot | undefined;
  try {
    event = (await publicEvents(lang)).find((e) => e.id === id);
    slot = event ? (await getShifts(id)).slots.find((s) => s.id === rawSlot) : undefined;
  } catch (err) {
    console.error('[shift calendar] could not read the event', err);
    return text(503, 'Temporarily unavailable', { 'Retry-After': '30', 'Cache-Control': 'no-store' });
  }
  if (!event || !slot) return text(404, 'Not found', cdnHeaders(CACHE_TAGS.events));
  const page = new URL(localizedPath(eventPagePath(id), lang), site).href;
  const name = `${calendarName(lang)}: ${SHIFT_COPY[lang].heading}`;
  return new Response(
    buildCalendar([shiftIcsEvent(event, slot, page)], {
      name: name || IDENTITY.smsProgramName,
      uidHost: site.hostname,
    }),
    {
      headers: {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': `attachment; filename="${shiftIcsFileName(id, slot.id)}"`,
        ...cdnHeaders(CACHE_TAGS.events),
      },
    },
  );
}
