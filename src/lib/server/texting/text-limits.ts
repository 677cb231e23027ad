import { ConfigError, env } from '../env.ts';
import { HttpError } from '../errors.ts';
import {
  BudgetSpentError,
  reserveAttempts,
  reserveClientAttempts,
  reserveSiteBudgets,
  siteBudgetUsage,
  type Limit,
  type SiteBudgetUsage,
} from '../auth/rate-limit.ts';
import { raiseAlert } from './alerts.ts';

/**
 * Limits on texts and the text-message sign-up (docs/decisions/151-texting.md, SMS pumping). The
 * captcha stops scripts; these bound what gets through anyway (a solving
 * service, a botnet) and what a person can trigger by hand. Chosen in
 * (docs/decisions/151-texting.md) and docs/decisions/151-texting.md
 * (the limits every text shares, whatever causes it). Each is reserved before
 * the work it guards (src/lib/server/auth/rate-limit.ts), keyed by the
 * platform's client IP (context.ip, never a client-sent header) or the E.164
 * number. The per-number text counts and the daily cap are taken by the text
 * guard (src/lib/server/texting/text-guard.ts) at the moment of sending.
 */
export const TEXT_SIGNUP_LIMITS = {
  /** Sign-ups one IP may send per hour: a household, an office, a phone on a carrier NAT. */
  signupsPerIp: { max: 20, windowSeconds: 60 * 60 },
  /**
   * Texts one IP may cause per hour, through every path: a sign-up's confirmation
   * (only numbers new to the list get one) and an RSVP's reminder opt-in (its text
   * goes out later, from the reminder job, which has no IP: it is counted here when asked for).
   */
  textsPerIp: { max: 10, windowSeconds: 60 * 60 },
  /** Sign-ups naming one number per hour: a double submit or a corrected name, not a flood of its log. */
  signupsPerNumber: { max: 5, windowSeconds: 60 * 60 },
  /** Sign-up confirmation texts to one number per day. */
  confirmationsPerNumber: { max: 1, windowSeconds: 24 * 60 * 60 },
  /** Texts of every kind to one number per day (a confirmation, reminders of two events tomorrow). */
  textsPerNumber: { max: 3, windowSeconds: 24 * 60 * 60 },
  /** Sign-ups without the bot check (a browser form post with scripts off) one IP may send per hour. */
  noScriptPerIp: { max: 3, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Limit>;

export const DEFAULT_SMS_DAILY_CAP = 500;
export const DEFAULT_TEXT_SIGNUP_HOURLY_CAP = 1000;
export const DEFAULT_TEXT_SIGNUP_NOSCRIPT_HOURLY_CAP = 30;

function positiveInt(
  name: 'SMS_DAILY_CAP' | 'TEXT_SIGNUP_HOURLY_CAP' | 'TEXT_SIGNUP_NOSCRIPT_HOURLY_CAP',
  fallback: number,
): number {
  const raw = env()[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`${name} must be a positive whole number`);
  return n;
}

/**
 * Site-wide caps: texts of every kind per UTC day (SMS_DAILY_CAP), sign-ups per
 * hour (TEXT_SIGNUP_HOURLY_CAP) and, of those, sign-ups without the bot check
 * per hour (TEXT_SIGNUP_NOSCRIPT_HOURLY_CAP).
 */
export function siteTextLimits(): { textsPerDay: Limit; signupsPerHour: Limit; noScriptPerHour: Limit } {
  return {
    noScriptPerHour: {
      max: positiveInt('TEXT_SIGNUP_NOSCRIPT_HOURLY_CAP', DEFAULT_TEXT_SIGNUP_NOSCRIPT_HOURLY_CAP),
      windowSeconds: 60 * 60,
    },
    textsPerDay: { max: positiveInt('SMS_DAILY_CAP', DEFAULT_SMS_DAILY_CAP), windowSeconds: 24 * 60 * 60 },
    signupsPerHour: {
      max: positiveInt('TEXT_SIGNUP_HOURLY_CAP', DEFAULT_TEXT_SIGNUP_HOURLY_CAP),
      windowSeconds: 60 * 60,
    },
  };
}

const minutes = (s: number) => `${Math.ceil(s / 60)} minute${s > 60 ? 's' : ''}`;
const BUSY = (s: number) => `We're getting a lot of sign-ups right now. Please try again in ${minutes(s)}.`;
const TOO_MANY_HERE = (s: number) =>
  `Too many sign-ups from this connection. Please try again in ${minutes(s)}.`;
const TOO_MANY_TEXTS_HERE = (s: number) =>
  `Too many text reminders were asked for from this connection. Please try again in ${minutes(s)}, or leave the reminder box unchecked.`;
const TOO_MANY_FOR_NUMBER = (s: number) =>
  `This number was just signed up several times. Please try again in ${minutes(s)}.`;

/** A sign-up without the bot check past its hourly share: the page with scripts on still works. */
const NO_SCRIPT_BUSY = (s: number) =>
  `We're getting a lot of sign-ups right now. Please turn JavaScript on and try again, or try again in ${minutes(s)}.`;

export const SMS_CAP_ALERT = 'sms-daily-cap';

/** The site-wide budget: text sign-ups per hour and texts of every kind per day, in one set of shards. */
const SITE_BUDGET = 'text-signup-site';

/** The per-IP document of the text limits (the sign-up's counters and the texts counter every path shares). */
const IP_SCOPE = 'text-signup-ip';
/** The per-number document: the sign-up's counter and the text guard's. */
const NUMBER_SCOPE = 'text-signup-number';

/**
 * Step 1, before the captcha goes to the verifier: this IP's sign-ups, and its
 * confirmation texts when the number is new to the list (`texts`). One write.
 */
export async function reserveFromIp(
  ip: string,
  texts: boolean,
  now = Date.now(),
  noScript = false,
): Promise<void> {
  await reserveClientAttempts(
    IP_SCOPE,
    ip,
    [
      { name: 'signups', limit: TEXT_SIGNUP_LIMITS.signupsPerIp, take: true },
      { name: 'texts', limit: TEXT_SIGNUP_LIMITS.textsPerIp, take: texts },
      { name: 'noscript', limit: TEXT_SIGNUP_LIMITS.noScriptPerIp, take: noScript },
    ],
    { now, message: TOO_MANY_HERE },
  );
}

/**
 * Step 2, after the captcha (so a bot cannot spend a stranger's allowance): the
 * number's sign-ups, the site's hourly sign-ups and, for a new number, the
 * site's daily text cap (one write each for the number and the site); the
 * number's own texts are counted when one is sent (reserveTextToNumber, by the
 * text guard). Run together; the first refusal in that order is the answer. When the
 * daily cap is spent, an alert is raised once per day (log and staff dashboard).
 */
export async function reserveForSignup(
  phone: string | null,
  texts: boolean,
  now = Date.now(),
  noScript = false,
): Promise<void> {
  const { signupsPerHour, textsPerDay, noScriptPerHour } = siteTextLimits();
  const results = await Promise.allSettled([
    phone
      ? reserveAttempts(
          NUMBER_SCOPE,
          phone,
          [{ name: 'signups', limit: TEXT_SIGNUP_LIMITS.signupsPerNumber, take: true }],
          { now, message: TOO_MANY_FOR_NUMBER },
        )
      : Promise.resolve(),
    reserveSiteBudgets(
      SITE_BUDGET,
      [
        { name: 'signups', limit: signupsPerHour, take: true },
        { name: 'texts', limit: textsPerDay, take: texts },
        { name: 'noscript', limit: noScriptPerHour, take: noScript },
      ],
      { now, message: noScript ? NO_SCRIPT_BUSY : BUSY },
    ),
  ]);
  const site = results[1];
  if (site.status === 'rejected' && site.reason instanceof BudgetSpentError && site.reason.budget === 'texts')
    await dailyCapReached(textsPerDay.max, now);
  const refused = results.find((r) => r.status === 'rejected');
  if (refused) throw refused.reason;
}

/** The staff alert, once per UTC day, when SMS_DAILY_CAP refuses a text (log and dashboard). */
async function dailyCapReached(max: number, now: number): Promise<void> {
  const end = new Date((Math.floor(now / 86_400_000) + 1) * 86_400_000).toISOString();
  await raiseAlert(
    SMS_CAP_ALERT,
    now,
    `The daily cap of ${max} texts (SMS_DAILY_CAP) was reached: new text sign-ups and reminder texts are refused until ${end}.`,
  );
}

/**
 * An RSVP that asks for a reminder text takes a slot of its IP's texts per
 * hour (textsPerIp, shared with the sign-up's confirmations) when it is posted:
 * the text itself goes out the day before the event, from a job with no IP.
 * 429 with Retry-After past it.
 */
export async function reserveTextFromIp(ip: string, now = Date.now()): Promise<void> {
  await reserveClientAttempts(
    IP_SCOPE,
    ip,
    [{ name: 'texts', limit: TEXT_SIGNUP_LIMITS.textsPerIp, take: true }],
    {
      now,
      message: TOO_MANY_TEXTS_HERE,
    },
  );
}

/**
 * The per-number counts of one text about to be sent (the text guard's, at
 * dispatch): every text to the number today and, for a sign-up confirmation,
 * its one confirmation a day. False when the number has had its share: the
 * text is skipped (the work that caused it stands).
 */
export async function reserveTextToNumber(
  phone: string,
  confirmation: boolean,
  now = Date.now(),
): Promise<boolean> {
  try {
    await reserveAttempts(
      NUMBER_SCOPE,
      phone,
      [
        { name: 'texts', limit: TEXT_SIGNUP_LIMITS.textsPerNumber, take: true },
        { name: 'confirmations', limit: TEXT_SIGNUP_LIMITS.confirmationsPerNumber, take: confirmation },
      ],
      { now },
    );
    return true;
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) return false;
    throw err;
  }
}

/**
 * One slot of the site's daily text cap (SMS_DAILY_CAP), for a text whose
 * request did not take it at the door (a reminder). False when the cap is
 * spent (the staff alert is raised) or the budget too busy to count it.
 */
export async function reserveDailyText(now = Date.now()): Promise<boolean> {
  const { textsPerDay } = siteTextLimits();
  try {
    await reserveSiteBudgets(SITE_BUDGET, [{ name: 'texts', limit: textsPerDay, take: true }], { now });
    return true;
  } catch (err) {
    if (err instanceof BudgetSpentError) await dailyCapReached(textsPerDay.max, now);
    if (err instanceof HttpError && err.status === 429) return false;
    throw err;
  }
}

/** Today's texts (every kind) against the cap, for the staff dashboard. */
export async function smsBudgetToday(now = Date.now()): Promise<SiteBudgetUsage> {
  return siteBudgetUsage(SITE_BUDGET, 'texts', siteTextLimits().textsPerDay, now);
}
