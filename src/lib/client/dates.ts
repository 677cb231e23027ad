/** Campaign-time formatting shared by islands (server and browser give the same text: no hydration mismatch). */
export const CAMPAIGN_TIME_ZONE = 'America/Chicago';

/*
 * `locale` is the page language's Intl tag (src/lib/lang-paths.ts LANG_TAGS):
 * "en-US" or "es-US" (issue 12).
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

/** Today's date (YYYY-MM-DD) in campaign time. */
export function campaignToday(now = new Date()): string {
  return now.toLocaleDateString('en-CA', { timeZone: CAMPAIGN_TIME_ZONE });
}
