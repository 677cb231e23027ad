import { campaignWallClock, daysBetween } from './campaign-time.ts';
import type { Lang } from './lang.ts';
import { NAME_CHARACTERS_MESSAGE } from './schemas/public-forms.ts';
import {
  electionStage,
  type ElectionCalendar,
  type ElectionRound,
  type ElectionStage,
  type VotingSite,
} from './election-stage.ts';

/*
 * A voter's plan to vote, the pure part (docs/decisions/158-plan-to-vote.md): which days a plan may name, what a
 * plan's day holds (hours and places), and when its reminders fall due (docs/decisions/158-plan-to-vote.md).
 * Zod-free and free of Node APIs: the /vote page (at build time), the pledge endpoint, the reminder job and the
 * browser share it. Dates and hours are campaign wall-clock values (src/lib/campaign-time.ts), never converted.
 */

/** How the voter will vote. */
export const PLAN_METHODS = ['in-person', 'mail'] as const;
export type PlanMethod = (typeof PLAN_METHODS)[number];

/** An optional time of day (the reminder repeats it; nothing is scheduled by it). */
export const PLAN_TIMES = ['morning', 'midday', 'afternoon', 'evening'] as const;
export type PlanTime = (typeof PLAN_TIMES)[number];

/** The two reminders a plan can get. */
export const PLAN_REMINDERS = ['eve', 'morning'] as const;
export type PlanReminder = (typeof PLAN_REMINDERS)[number];

/**
 * When each reminder falls due (campaign hours): the evening before the chosen day, and Election Day morning at
 * the start of the send window (texting/quiet-hours.ts, 9:00). Each lapses when it would no longer help: the eve
 * reminder at midnight (the day has come), the morning one when the polls close.
 */
export const REMINDER_HOURS = { eve: '17:00', morning: '09:00' } as const;

/** One day a plan may name: an early-voting day or Election Day of the current round. */
export interface PlanDay {
  date: string;
  kind: 'early' | 'election-day';
  open: string;
  close: string;
  /** Early voting: that day's sites; Election Day: none (each voter has an assigned polling place). */
  sites: VotingSite[];
}

/** The round a plan made now is for, or null when no plan can be made (the polls have closed). */
export function planRound(calendar: ElectionCalendar, now: Date): ElectionStage | null {
  const stage = electionStage(calendar, now);
  return stage.pollsClosed ? null : stage;
}

const sitesOf = (calendar: ElectionCalendar, ids: string[]) =>
  ids.map((id) => calendar.sites.find((s) => s.id === id)).filter((s): s is VotingSite => s !== undefined);

/** Every day of a round a plan may name, in date order. */
export function roundDays(calendar: ElectionCalendar, round: ElectionRound): PlanDay[] {
  return [
    ...round.earlyVoting.map((d) => ({
      date: d.date,
      kind: 'early' as const,
      open: d.open,
      close: d.close,
      sites: sitesOf(calendar, d.sites),
    })),
    { date: round.electionDay.date, kind: 'election-day', ...hoursOf(round), sites: [] },
  ];
}

const hoursOf = (round: ElectionRound) => ({ open: round.electionDay.open, close: round.electionDay.close });

/**
 * The days a plan made at `now` may name: the round's days that have not closed yet. By mail, only days on or
 * before the mail-ballot return deadline (a ballot mailed later arrives too late).
 */
export function planDays(calendar: ElectionCalendar, now: Date, method?: PlanMethod): PlanDay[] {
  const stage = planRound(calendar, now);
  if (!stage) return [];
  const clock = campaignWallClock(now);
  const ret = stage.dates.mailBallot.return;
  return roundDays(calendar, stage.dates).filter(
    (d) => clock < `${d.date}T${d.close}` && (method !== 'mail' || d.date <= ret.date),
  );
}

/** The previous campaign date. */
export function dayBefore(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** The plan a reminder is about, as the job and the confirmation page see it. */
export interface PlanRef {
  round: 'primary' | 'runoff';
  day: string;
  method: PlanMethod;
}

/** The round's dates of a plan, from the calendar as it is now (null when the round has no dates any more). */
export function roundOf(calendar: ElectionCalendar, round: PlanRef['round']): ElectionRound | null {
  return round === 'primary' ? calendar.primary : calendar.runoff;
}

/** The plan's day as the calendar has it now (null when the day is no longer one of the round's). */
export function planDay(calendar: ElectionCalendar, plan: PlanRef): PlanDay | null {
  const round = roundOf(calendar, plan.round);
  return round ? (roundDays(calendar, round).find((d) => d.date === plan.day) ?? null) : null;
}

/**
 * When a reminder of this plan falls due and when it lapses (campaign wall clock "YYYY-MM-DDTHH:MM"), or null when
 * the plan does not get it: the eve reminder for every plan; the Election Day morning reminder for plans to vote
 * in person (a mail ballot must have arrived before Election Day: docs/decisions/158-plan-to-vote.md).
 */
export function reminderWindow(
  calendar: ElectionCalendar,
  plan: PlanRef,
  which: PlanReminder,
): { due: string; lapses: string } | null {
  const round = roundOf(calendar, plan.round);
  if (!round || !planDay(calendar, plan)) return null;
  if (which === 'eve')
    return { due: `${dayBefore(plan.day)}T${REMINDER_HOURS.eve}`, lapses: `${plan.day}T00:00` };
  if (plan.method !== 'in-person') return null;
  const ed = round.electionDay;
  return { due: `${ed.date}T${REMINDER_HOURS.morning}`, lapses: `${ed.date}T${ed.close}` };
}

/** Days from `today` to the plan's day (0 on the day). */
export const daysToPlan = (today: string, plan: Pick<PlanRef, 'day'>) => daysBetween(today, plan.day);

/** What the plan endpoints and pages say (English, like every server message; the pages word their own). */
export const VOTE_PLAN_MESSAGES = {
  name: 'Please enter your name',
  nameCharacters: NAME_CHARACTERS_MESSAGE,
  day: 'Choose a day from the list',
  dayPast: 'That day has passed: choose another day from the list',
  dayMail: 'A mail ballot must arrive by the return deadline: choose an earlier day',
  method: 'Choose how you will vote',
  contact: 'Enter a phone number or an email address so we can remind you',
  phoneForSms: 'Please enter a mobile number for the text reminders',
  emailForEmail: 'Please enter an email address for the email reminders',
  closed: 'The polls have closed: plans to vote are closed for this election.',
  saved: 'Your plan to vote is saved.',
  badLink: 'This link is not valid any more. Please use the link from your latest reminder.',
  voted: 'Thank you for voting! We will not remind you again.',
  stopped: 'Your reminders are stopped. We will not remind you about this plan again.',
  resumed: 'Your reminders are on again.',
  changed: 'Your plan is changed.',
} as const;

/** The words of the plan form's errors in a language (src/content/vote.ts `planCopy.errors`). */
export type PlanErrorWords = Record<
  keyof typeof VOTE_PLAN_MESSAGES | 'phone' | 'email' | 'captcha' | 'offline',
  string
>;

/**
 * A server message (English) in the page's language, for the island and the refused page alike: the message names
 * its translation; a phone, email or captcha field's other messages are that field's own; else the server's words.
 */
export function planMessageIn(lang: Lang, errors: PlanErrorWords) {
  const byMessage = new Map<string, string>(
    (Object.keys(VOTE_PLAN_MESSAGES) as (keyof typeof VOTE_PLAN_MESSAGES)[]).map((k) => [
      VOTE_PLAN_MESSAGES[k],
      errors[k],
    ]),
  );
  return (message: string, field?: string): string => {
    if (lang === 'en') return message;
    const own = byMessage.get(message);
    if (own) return own;
    if (field === 'phone' || field === 'email' || field === 'captcha') return errors[field];
    return message;
  };
}

/** The plan page (its `id` is the link's 128-bit random id, never a hash of the contact). */
export const PLAN_PAGE = '/vote/plan';
export const planPagePath = (linkId: string) => `${PLAN_PAGE}?id=${linkId}`;
export const planCalendarPath = (linkId: string) => `${PLAN_PAGE}.ics?id=${linkId}`;
/** A plan link's id: 128 random bits, base64url. */
export const PLAN_LINK_ID = /^[A-Za-z0-9_-]{22}$/;
