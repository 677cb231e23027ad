import { planDayLabel, planLines, type PlanLines } from '../../../content/vote-plan-lines.ts';
import { buildCalendar } from '../../ics.ts';
import type { Lang } from '../../lang.ts';
import type { StoredVotePlan } from '../../schemas/vote-plan.ts';
import { PLAN_METHODS, planDays, type PlanMethod } from '../../vote-plan.ts';
import { getElectionCalendar } from '../election/calendar.ts';
import { planForLink } from '../vote-plans/record.ts';
import { calendarName } from './event-calendar.ts';
import type { PageResponse } from './page-data.ts';

/*
 * The plan to vote's own page and calendar file (docs/decisions/158-plan-to-vote.md): what the link
 * (`/vote/plan?id=<128 random bits>`) is for. Opening it changes nothing (mail scanners open links); the buttons on
 * it post. Never cached, no referrer (the id is in the address). Only what the voter chose is shown: not their
 * phone or email.
 */

export type PlanPageData =
  | { state: 'bad' | 'unavailable' }
  | {
      state: 'ok';
      linkId: string;
      plan: Pick<
        StoredVotePlan,
        'day' | 'method' | 'timeOfDay' | 'bringing' | 'name' | 'votedAt' | 'stoppedAt'
      >;
      reminders: { sms: boolean; email: boolean };
      lines: PlanLines;
      /** "Change my plan": the days and ways a plan may name now (empty once the polls have closed). */
      change: { days: { date: string; label: string }[]; methods: PlanMethod[] };
    };

const uidOf = (plan: StoredVotePlan) => `plan-${plan.round}-${plan.linkId}`;

async function load(linkId: string | null): Promise<{
  plan: StoredVotePlan;
  calendar: Awaited<ReturnType<typeof getElectionCalendar>>['calendar'];
} | null> {
  const plan = linkId ? await planForLink(linkId) : null;
  return plan ? { plan, calendar: (await getElectionCalendar()).calendar } : null;
}

export async function loadPlanPage(
  response: PageResponse,
  query: URLSearchParams,
  lang: Lang,
  now = new Date(),
): Promise<PlanPageData> {
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Referrer-Policy', 'no-referrer');
  try {
    const found = await load(query.get('id'));
    if (!found) {
      response.status = 404;
      return { state: 'bad' };
    }
    const { plan, calendar } = found;
    const { day, method, timeOfDay, bringing, name, votedAt, stoppedAt } = plan;
    return {
      state: 'ok',
      linkId: plan.linkId,
      // Only what the page shows (never the phone or email, nor when or from where the plan was made).
      plan: { day, method, timeOfDay, bringing, name, votedAt, stoppedAt },
      reminders: { sms: Boolean(plan.smsConsent), email: Boolean(plan.emailConsent) },
      lines: planLines(calendar, plan, lang, uidOf(plan)),
      change: {
        days: planDays(calendar, now).map((d) => ({ date: d.date, label: planDayLabel(d, lang) })),
        methods: PLAN_METHODS.filter((m) => planDays(calendar, now, m).length > 0),
      },
    };
  } catch (err) {
    console.error('[plan page] could not read the plan', err);
    response.status = 503;
    response.headers.set('Retry-After', '30');
    return { state: 'unavailable' };
  }
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });

/** GET /vote/plan.ics?id=…: the plan as an iCalendar file, in the plan's language ("add to calendar"). */
export async function planCalendarResponse(query: URLSearchParams, site: URL): Promise<Response> {
  let found;
  try {
    found = await load(query.get('id'));
  } catch (err) {
    console.error('[plan calendar] could not read the plan', err);
    return text(503, 'Temporarily unavailable', { 'Retry-After': '30' });
  }
  if (!found) return text(404, 'Not found');
  const { plan, calendar } = found;
  const event = planLines(calendar, plan, plan.lang, uidOf(plan)).calendarEvent;
  return new Response(buildCalendar([event], { name: calendarName(plan.lang), uidHost: site.hostname }), {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="plan-to-vote-${plan.day}.ics"`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
