/**
 * The campaign's clock, declared once and used by the server, the pages and the browser: its time zone, "today" in
 * it, and how dates and times are written (server and browser give the same text: no hydration mismatch). Zod-free and
 * free of Node APIs, so any module may import it.
 */

/** The campaign's time zone (New Orleans): every campaign day, hour and deadline is read in it. */
export const CAMPAIGN_TIME_ZONE = 'America/Chicago';

/*
 * `locale` is the page language's Intl tag (src/lib/lang-paths.ts LANG_TAGS):
 * "en-US" or "es-US" (docs/decisions/166-spanish.md).
 */

/** "September 17, 2025" for an ISO timestamp, in campaign time. */
export function formatPublishedDate(iso: string | null | undefined, locale = 'en-US'): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  return new Date(iso).toLocaleDateString(locale, { dateStyle: 'long', timeZone: CAMPAIGN_TIME_ZONE });
}

/** "Wednesday, October 1, 2025" for a YYYY-MM-DD date. */
export function formatEventDate(date: string, locale = 'en-US'): string {
  const ms = Date.parse(`${date}T12:00:00Z`);
  if (Number.isNaN(ms)) return date;
  return new Date(ms).toLocaleDateString(locale, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "6:30 PM" for "18:30" ("6:30 p. m." in es-US). */
export function formatTime(time: string, locale = 'en-US'): string {
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m) return time;
  const h = Number(m[1]);
  if (locale !== 'en-US')
    return new Date(Date.UTC(2000, 0, 1, h, Number(m[2]))).toLocaleTimeString(locale, {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'UTC',
    });
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${h < 12 ? 'AM' : 'PM'}`;
}

let dayFormat: Intl.DateTimeFormat | null = null;

/** Today's date (YYYY-MM-DD) in campaign time. */
export function campaignToday(now = new Date()): string {
  // One formatter, made on first use: building one costs far more than formatting with it (a request asks often).
  dayFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: CAMPAIGN_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return dayFormat.format(now);
}

/** "October 1, 2025, 6:30 PM" for an ISO timestamp, in campaign time. */
export function formatCampaignDateTime(iso: string, locale = 'en-US'): string {
  return new Date(iso).toLocaleString(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: CAMPAIGN_TIME_ZONE,
  });
}

let wallClockParts: Intl.DateTimeFormat | null = null;

/** The campaign's wall clock at an instant, as its parts (year, month, day, hour, minute, second). */
function wallClock(t: number): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const out = { year: '0000', month: '01', day: '01', hour: '00', minute: '00', second: '00' };
  // Made on first use: pages that import this module but never ask the time build no formatter.
  wallClockParts ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: CAMPAIGN_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  for (const p of wallClockParts.formatToParts(new Date(t)))
    if (p.type in out) out[p.type as keyof typeof out] = p.value;
  return out;
}

/**
 * The campaign's wall clock at `now`: "YYYY-MM-DDTHH:MM" in campaign time. Strings of this form compare in time
 * order (lexicographically), so a campaign date and hour ("2025-10-11" + "20:00") is compared with the clock
 * without converting it to an instant, and a daylight-saving change moves nothing
 * (docs/decisions/157-election-calendar.md).
 */
export function campaignWallClock(now = new Date()): string {
  const c = wallClock(now.getTime());
  return `${c.year}-${c.month}-${c.day}T${c.hour}:${c.minute}`;
}

/** Whole calendar days from `from` to `to` (both YYYY-MM-DD): 1 for the next day, negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

/**
 * An instant as the campaign's wall clock, "YYYY-MM-DD HH:MM:SS" (the form spreadsheets read as a date and time),
 * for the staff CSVs' local-time columns beside the ISO value; '' for a missing or unreadable time.
 */
export function campaignLocalTime(iso: string | null | undefined): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  if (!Number.isFinite(t)) return '';
  const c = wallClock(t);
  return `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}:${c.second}`;
}

/** How far the campaign's wall clock is ahead of UTC at an instant, in milliseconds (negative west of UTC). */
function campaignOffsetMs(t: number): number {
  const c = wallClock(t);
  const asUtc = Date.UTC(+c.year, +c.month - 1, +c.day, +c.hour, +c.minute, +c.second);
  return asUtc - Math.floor(t / 1000) * 1000;
}

/**
 * The instant a campaign calendar day (YYYY-MM-DD) begins: midnight in the campaign's time zone, as an ISO string,
 * daylight saving included. Sign-up date filters compare stored ISO times with it.
 */
export function campaignDayStart(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`Not a date: ${date}`);
  const midnightUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!);
  // Twice: the offset at the first guess may be the other side of a daylight-saving change.
  let t = midnightUtc - campaignOffsetMs(midnightUtc);
  t = midnightUtc - campaignOffsetMs(t);
  return new Date(t).toISOString();
}

/** The campaign calendar day after `date` (both YYYY-MM-DD). */
export function nextCampaignDay(date: string): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
