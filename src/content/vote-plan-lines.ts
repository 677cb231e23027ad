import { formatEventDate, formatTime } from '../lib/campaign-time.ts';
import type { ElectionCalendar } from '../lib/election-stage.ts';
import type { IcsEvent } from '../lib/ics.ts';
import { LANG_TAGS } from '../lib/lang-paths.ts';
import type { Lang } from '../lib/lang.ts';
import { planDay, roundOf, type PlanDay, type PlanRef } from '../lib/vote-plan.ts';
import { copyFor } from './copy.ts';

/*
 * What a plan to vote says, in a language (docs/decisions/158-plan-to-vote.md): the day, how, and the places and
 * hours of that day from the calendar as it is now. One function for the form's choices, the plan page, the
 * reminders and the plan's calendar file, so they never disagree.
 */

const day = (iso: string, lang: Lang) => formatEventDate(iso, LANG_TAGS[lang].intl);
const hour = (time: string, lang: Lang) => formatTime(time, LANG_TAGS[lang].intl);

/** A day as the form's list offers it: "Saturday, September 27, 2025 (early voting)". */
export function planDayLabel(d: PlanDay, lang: Lang): string {
  const words = copyFor(lang).vote.planCopy;
  return d.kind === 'early' ? words.earlyDay(day(d.date, lang)) : words.electionDay(day(d.date, lang));
}

export interface PlanLines {
  /** "Saturday, October 4, 2025". */
  day: string;
  /** "in person" / "by mail". */
  how: string;
  /** The places and hours of that day (or the mail deadline). */
  where: string;
  /** The day's hours as "8:30 AM to 6:00 PM" (in person), else null. */
  hours: string | null;
  /** The day as it is now in the calendar (null: the day is no longer one of the round's). */
  planDay: PlanDay | null;
  /** The plan as a calendar entry (the "add to calendar" file). */
  calendarEvent: IcsEvent;
}

export function planLines(calendar: ElectionCalendar, plan: PlanRef, lang: Lang, uid: string): PlanLines {
  const { planCopy: words, voteCopy } = copyFor(lang).vote;
  const found = planDay(calendar, plan);
  const hours = found ? voteCopy.hours(hour(found.open, lang), hour(found.close, lang)) : null;
  const ret = roundOf(calendar, plan.round)?.mailBallot.return;
  let where: string;
  if (plan.method === 'mail')
    where = words.mailWhere(ret ? voteCopy.at(day(ret.date, lang), hour(ret.time, lang)) : '');
  else if (found?.kind === 'early')
    where = words.earlyWhere(hours!, found.sites.map((s) => `${s.name}, ${s.address}`).join('; '));
  else where = words.electionDayWhere(hours ?? '');
  const inPerson = plan.method === 'in-person' && found;
  return {
    day: day(plan.day, lang),
    how: words.reminder.how[plan.method],
    where,
    hours: plan.method === 'in-person' ? hours : null,
    planDay: found,
    calendarEvent: {
      id: 0,
      uid,
      title: words.calendarTitle[plan.method],
      description: where,
      location: found?.kind === 'early' ? found.sites.map((s) => `${s.name}, ${s.address}`).join('; ') : '',
      eventDate: plan.day,
      // By mail: a reminder at 9:00 for an hour; in person: the day's hours.
      startTime: inPerson ? found.open : '09:00',
      endTime: inPerson ? found.close : '',
    },
  };
}
