import { CAMPAIGN_TIME_ZONE } from '../../campaign-time.ts';
import { env } from '../env.ts';
import { NANP_PREFIX_ZONES, NANP_ZONE_NAMES } from './nanp-zones.ts';

/**
 * Quiet hours in the recipient's local time (docs/decisions/151-texting.md).
 *
 * - The zone comes from the number: Google libphonenumber's map of +1 prefixes (area code, or area code
 *   and exchange where an area code straddles zones), generated into nanp-zones.ts. An area code in
 *   more than one zone (Alaska's 907, western South Dakota's 605, Idaho's 208 ...) gives every one of
 *   them, and a text goes out only while the window is open in all of them.
 * - A number the map does not know (a new overlay, a country outside +1) gets the campaign's zone and
 *   the narrowest window (NARROWEST_WINDOW within the configured one).
 * - The window is SMS_SEND_WINDOW ("9-20" by default: 9:00 until 20:00 every day), and never wider
 *   than 8:00-21:00 (47 CFR 64.1200(c)(1)); a wider setting is narrowed to it.
 */

export interface SendWindow {
  /** First hour (0-23) a text may go out, local time. */
  fromHour: number;
  /** The hour texts stop: a text at untilHour:00 or later waits for the next day. */
  untilHour: number;
}

/** 9:00-20:00: inside every state's rule (FL, MD, MS, NJ, OK 8-20; CT 9-20; TX 9-21). */
export const DEFAULT_SEND_WINDOW: SendWindow = { fromHour: 9, untilHour: 20 };
/** The federal limits (8 a.m. to 9 p.m.): no setting may widen the window past them. */
export const LEGAL_WINDOW: SendWindow = { fromHour: 8, untilHour: 21 };
/** For a number whose zone is unknown: the narrowest window any state asks for. */
export const NARROWEST_WINDOW: SendWindow = { fromHour: 9, untilHour: 20 };

const intersect = (a: SendWindow, b: SendWindow): SendWindow => ({
  fromHour: Math.max(a.fromHour, b.fromHour),
  untilHour: Math.min(a.untilHour, b.untilHour),
});

/**
 * The configured window ("H-H", e.g. "9-20"), kept inside LEGAL_WINDOW. Missing or malformed: the
 * default. A window that closes before it opens is refused the same way (never "always open").
 */
export function parseSendWindow(raw: string | undefined): SendWindow {
  const m = raw ? /^\s*(\d{1,2})\s*-\s*(\d{1,2})\s*$/.exec(raw) : null;
  if (!m) return DEFAULT_SEND_WINDOW;
  const w = intersect({ fromHour: Number(m[1]), untilHour: Number(m[2]) }, LEGAL_WINDOW);
  return w.fromHour < w.untilHour ? w : DEFAULT_SEND_WINDOW;
}

export interface RecipientZones {
  /** IANA zones the number may be in (one, usually). */
  zones: string[];
  /** False when the map does not know the number: the campaign's zone stands in. */
  known: boolean;
}

let table: Map<string, string[]> | null = null;
function prefixTable(): Map<string, string[]> {
  if (table) return table;
  table = new Map();
  for (const row of NANP_PREFIX_ZONES.split(',')) {
    const [prefix, zones] = row.split(':') as [string, string];
    table.set(
      prefix,
      zones.split('+').map((i) => NANP_ZONE_NAMES[Number(i)] as string),
    );
  }
  return table;
}

/** The zones of an E.164 number: the longest +1 prefix the map knows (6 digits down to the area code). */
export function recipientZones(phone: string): RecipientZones {
  const m = /^\+1(\d{10})$/.exec(phone);
  if (m) {
    const digits = m[1]!;
    const t = prefixTable();
    for (let len = 6; len >= 3; len--) {
      const zones = t.get(digits.slice(0, len));
      if (zones) return { zones, known: true };
    }
  }
  return { zones: [CAMPAIGN_TIME_ZONE], known: false };
}

/** The window that applies: the configured one, narrowed to NARROWEST_WINDOW when the zone is unknown. */
export function effectiveWindow(configured: SendWindow, known: boolean): SendWindow {
  return known ? configured : intersect(configured, NARROWEST_WINDOW);
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();
/** The hour (0-23) at `now` in `timeZone`. */
export function localHour(now: Date, timeZone: string): number {
  let f = hourFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' });
    hourFormats.set(timeZone, f);
  }
  return Number(f.format(now));
}

/** Whether `now` is inside `window` in every one of `zones`. */
export function windowOpen(now: Date, zones: readonly string[], window: SendWindow): boolean {
  return zones.every((z) => {
    const h = localHour(now, z);
    return h >= window.fromHour && h < window.untilHour;
  });
}

/** Whether recipients in `r` may be texted at `now` under the window `configured` (the pure form of the rule). */
export function recipientWindowOpen(now: Date, r: RecipientZones, configured: SendWindow): boolean {
  return windowOpen(now, r.zones, effectiveWindow(configured, r.known));
}

/** Whether a text to `phone` may go out at `now` under the configured window. */
export function insideRecipientWindow(now: Date, phone: string, configured: SendWindow): boolean {
  return recipientWindowOpen(now, recipientZones(phone), configured);
}

/** The configured send window (SMS_SEND_WINDOW, "9-20"), kept inside 8-21. */
export function sendWindow(): SendWindow {
  return parseSendWindow(env().SMS_SEND_WINDOW);
}

/**
 * THE quiet-hours rule: whether texts to recipients in `r` (a number's zones, `recipientZones`, or a broadcast
 * chunk's bucket, `bucketZones`) may go out at `now` under the configured window. The delivery engine asks it
 * before it leases a chunk and before each batch (src/lib/server/broadcasts/engine.ts), the staff view to show
 * what waits, and the text guard asks it again for every text (text-guard.ts, check 4): the guard stays the
 * last door, the rule is this one function.
 */
export function quietHoursAllow(now: Date, r: RecipientZones): boolean {
  return recipientWindowOpen(now, r, sendWindow());
}

/** Whether `now` is inside the configured send window in `timeZone` (a job's run-level check: the reminders). */
export function insideSendWindow(now: Date, timeZone: string = CAMPAIGN_TIME_ZONE): boolean {
  return quietHoursAllow(now, { zones: [timeZone], known: true });
}

/**
 * A key-safe name for a recipient's zones and whether they are known ("America:Chicago",
 * "America:Adak+America:Anchorage", "unknown"): recipients that share it open and close together,
 * so the broadcast queue keeps them in the same chunks (src/lib/server/broadcasts/queue.ts).
 */
export function zoneBucket(r: RecipientZones): string {
  return r.known ? r.zones.map((z) => z.replaceAll('/', ':')).join('+') : 'unknown';
}

/** The zones and knownness a bucket name stands for (the inverse of zoneBucket). */
export function bucketZones(bucket: string): RecipientZones {
  if (bucket === 'unknown') return { zones: [CAMPAIGN_TIME_ZONE], known: false };
  return { zones: bucket.split('+').map((z) => z.replaceAll(':', '/')), known: true };
}

/** Whether a bucket's window is open at `now`. */
export function bucketOpen(now: Date, bucket: string, configured: SendWindow): boolean {
  return recipientWindowOpen(now, bucketZones(bucket), configured);
}

/** The next whole hour at or after `now` when the bucket's window is open (within 48 hours), for display. */
export function nextOpening(now: Date, bucket: string, configured: SendWindow): Date | null {
  if (bucketOpen(now, bucket, configured)) return now;
  const start = new Date(now);
  start.setUTCMinutes(0, 0, 0);
  for (let h = 1; h <= 48; h++) {
    const t = new Date(start.getTime() + h * 3_600_000);
    if (bucketOpen(t, bucket, configured)) return t;
  }
  return null;
}
