/**
 * iCalendar (RFC 5545) for campaign events: one pure function builds both the
 * subscribable feed (/events.ics) and the per-event "Add to calendar" download.
 * Times are local campaign times (CAMPAIGN_TIME_ZONE) with a VTIMEZONE block, so
 * calendars show 6:00 PM in New Orleans whatever the reader's zone.
 */

import { CAMPAIGN_TIME_ZONE } from './campaign-time.ts';

/** The fields of a campaign event the calendar needs (a subset of CampaignEvent). */
export interface IcsEvent {
  id: number;
  /** The UID's local part when not `event-{id}` (the election's dates: `election-…`). */
  uid?: string;
  title: string;
  description: string;
  location: string;
  /** YYYY-MM-DD, campaign local date. */
  eventDate: string;
  /** HH:MM, 24-hour, campaign local time. */
  startTime: string;
  /** HH:MM or '' (then the event lasts one hour). */
  endTime: string;
  registrationUrl?: string;
  updatedAt?: string;
}

export interface CalendarOptions {
  /** Calendar name shown by subscribing apps. */
  name: string;
  /** Host used in UIDs so they stay globally unique and stable, e.g. "averyformayor.com". */
  uidHost: string;
  /** DTSTAMP; pass a fixed value in tests. */
  now?: Date;
}

export const CAMPAIGN_TZID = CAMPAIGN_TIME_ZONE;

const CRLF = '\r\n';

// US Central time rules since 2007 (second Sunday of March, first Sunday of November).
const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${CAMPAIGN_TZID}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0600',
  'TZOFFSETTO:-0500',
  'TZNAME:CDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0600',
  'TZNAME:CST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/**
 * TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma, newline; the other control characters, which
 * a TEXT value may not hold (TSAFE-CHAR), are dropped.
 */
export function escapeText(value: string): string {
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Content-line folding (RFC 5545 3.1): lines longer than 75 octets are split
 * with CRLF + one space, never inside a multi-byte UTF-8 character.
 */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  // The first line holds 75 octets; continuation lines 74 plus the leading space.
  let limit = 75;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = 74;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function localStamp(date: string, time: string): string {
  return `${date.replace(/-/g, '')}T${time.replace(':', '')}00`;
}

function eventLines(event: IcsEvent, opts: Required<CalendarOptions>): string[] {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${event.uid ?? `event-${event.id}`}@${opts.uidHost}`,
    `DTSTAMP:${utcStamp(opts.now)}`,
    `DTSTART;TZID=${CAMPAIGN_TZID}:${localStamp(event.eventDate, event.startTime)}`,
    event.endTime && event.endTime > event.startTime
      ? `DTEND;TZID=${CAMPAIGN_TZID}:${localStamp(event.eventDate, event.endTime)}`
      : 'DURATION:PT1H',
    `SUMMARY:${escapeText(event.title)}`,
  ];
  if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
  if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`);
  if (event.registrationUrl) lines.push(`URL:${event.registrationUrl}`);
  if (event.updatedAt && !Number.isNaN(Date.parse(event.updatedAt))) {
    lines.push(`LAST-MODIFIED:${utcStamp(new Date(event.updatedAt))}`);
  }
  lines.push('END:VEVENT');
  return lines;
}

/** A complete VCALENDAR with CRLF line endings (also for a single event). */
export function buildCalendar(events: readonly IcsEvent[], options: CalendarOptions): string {
  const opts: Required<CalendarOptions> = { now: new Date(), ...options };
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(opts.name)}//Campaign Events//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(opts.name)}`,
    `X-WR-TIMEZONE:${CAMPAIGN_TZID}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...VTIMEZONE,
    ...events.flatMap((e) => eventLines(e, opts)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** A safe download name for one event, e.g. "town-hall-2025-10-01.ics". */
export function icsFileName(event: Pick<IcsEvent, 'title' | 'eventDate'>): string {
  const base = event.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'event'}-${event.eventDate}.ics`;
}
