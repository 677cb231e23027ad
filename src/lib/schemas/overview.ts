import { isoDate } from './fields.ts';
import { z } from './zod.ts';

/**
 * The campaign at a glance (docs/decisions/180-overview.md): what the Overview counts per campaign day. Each
 * kind is counted once per record (a sign-up, an opt-out), on the campaign day it happened, when the record is
 * written; the Overview reads one rollup per day, never the records.
 */
export const ACTIVITY_KINDS = [
  'signup.text',
  'signup.newsletter',
  'signup.volunteer',
  'signup.rsvp',
  'signup.plan',
  'text.optin',
  'text.optout',
  'text.carrier_optout',
  'email.optin',
  'email.unsubscribe',
  'email.bounce',
  'email.spam',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The sign-up kinds, in the order the Overview shows them. */
export const SIGNUP_KINDS = ACTIVITY_KINDS.filter((k) => k.startsWith('signup.')) as Extract<
  ActivityKind,
  `signup.${string}`
>[];

/**
 * Where a sign-up came from, as a short token: `page:<form>` (the form's page), `ref:<refcode>` (a link with
 * `?refcode=`), `invite` (credited through a supporter's invite link, `/r/<code>`: no code, the Overview names no
 * supporter). Anything else is `other`.
 */
export const SOURCE_PATTERN = /^(?:(?:page|ref):[A-Za-z0-9._-]{1,40}|invite)$/;
export const OTHER_SOURCE = 'other';
export const INVITE_SOURCE = 'invite';

/**
 * A campaign link's refcode as a sign-up source (docs/decisions/180-overview.md, "Refcodes"): a short token, else
 * nothing (a hostile value is dropped, never stored, shown or exported).
 */
export const REFCODE_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;
export function refcodeToken(raw: unknown): string | null {
  return typeof raw === 'string' && REFCODE_PATTERN.test(raw) ? raw : null;
}
export const refcodeSource = (code: string) => `ref:${code}`;
/** The Overview lists this many refcodes by name (the most sign-ups); the rest are one row, "Other refcodes". */
export const TOP_REFCODES = 10;
/** Not a stored source (it fails SOURCE_PATTERN): the Overview's row of the refcodes past the top ones. */
export const OTHER_REFCODES = 'ref-other';

/** A source token as staff read it: "Invite link", "Page: volunteer", "Refcode: fall-mailer", "Other". */
export function sourceLabel(token: string): string {
  if (token === INVITE_SOURCE) return 'Invite link';
  if (token === OTHER_REFCODES) return 'Other refcodes';
  const m = /^(page|ref):(.+)$/.exec(token);
  if (!m) return 'Other';
  return `${m[1] === 'page' ? 'Page' : 'Refcode'}: ${m[2]}`;
}

export const OVERVIEW_PERIODS = ['7', '30', 'launch'] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];

export const OverviewQuerySchema = z.object({
  period: z.enum(OVERVIEW_PERIODS, { error: 'period must be 7, 30 or launch' }).default('7'),
});

const counts = z.record(z.string(), z.number().int());

/** One campaign day's rollup as stored. */
export const ActivityDaySchema = z.object({
  day: isoDate,
  counts,
  /** Sign-ups by source, per kind. */
  sources: z.record(z.string(), counts),
  /** The ops folded in whose keys may still be listed (a fold that stopped before deleting them). */
  applied: z.array(z.string()),
});
export type ActivityDay = z.infer<typeof ActivityDaySchema>;

/**
 * One campaign day of the next seven (today first): the shift places needed and filled over every slot of that
 * day, and the slots with places open (each links to its event's shifts).
 */
export interface ShiftGapDay {
  day: string;
  needed: number;
  filled: number;
  gaps: {
    eventId: number;
    title: string;
    slotId: string;
    start: string;
    end: string;
    label: string;
    needed: number;
    filled: number;
  }[];
}

/** GET /api/admin/overview: figures only, no personal data. */
export interface Overview {
  period: OverviewPeriod;
  from: string;
  to: string;
  /** One row per campaign day, oldest first, every kind present (0 when nothing happened). */
  days: { day: string; counts: Record<ActivityKind, number> }[];
  totals: Record<ActivityKind, number>;
  /** Sign-ups by source over the period, largest first. */
  sources: { source: string; kind: ActivityKind; count: number }[];
  /** The latest broadcasts that went out (at most five), newest first. */
  broadcasts: {
    id: number;
    name: string;
    channel: string;
    status: string;
    recipients: number;
    sent: number;
    failed: number;
    skipped: number;
    delivered: number;
    undelivered: number;
    /** When it started going out (ISO), or null. */
    startedAt: string | null;
    /**
     * Opt-outs on its channel the campaign day it started and the next (STOP replies and carrier opt-outs for a text,
     * unsubscribes and spam reports for an email), from the daily counts; null when those days are outside the period.
     */
    optOutsAfter: number | null;
  }[];
  /** Events of the period (at most twenty, the latest first): signed up against checked in. */
  events: {
    id: number;
    title: string;
    date: string;
    going: number;
    waitlisted: number;
    attended: number;
    capacity: number | null;
  }[];
  donations: {
    netCents: number;
    count: number;
    goalCents: number | null;
    byDay: { day: string; netCents: number; count: number }[];
    byRefcode: { refcode: string; netCents: number; count: number }[];
  };
  goals: { label: string; current: number; target: number | null; kind: 'goal' | 'milestone' }[];
  /** The next seven campaign days' shifts (today first), whatever the period. */
  shifts: ShiftGapDay[];
  /** Set when ops written before the last fold ran (or long ago) are not yet in the rollups. */
  behind: { since: string | null } | null;
}
