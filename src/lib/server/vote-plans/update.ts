import { campaignWallClock } from '../../campaign-time.ts';
import type { StoredVotePlan } from '../../schemas/vote-plan.ts';
import {
  PLAN_REMINDERS,
  reminderWindow,
  VOTE_PLAN_MESSAGES,
  type PlanMethod,
  type PlanTime,
} from '../../vote-plan.ts';
import { getElectionCalendar } from '../election/calendar.ts';
import { HttpError } from '../errors.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { dueKey, parsePlan, planKey, recordForLink, SKIPPED_STOPPED, votePlans } from './record.ts';
import { checkPlanDay } from './submit.ts';

/**
 * The plan page's buttons and its change form (docs/decisions/158-plan-to-vote.md). The link (128 random bits) is
 * the proof that the plan is the voter's: it is the only way to change a plan, and the only way to undo a stop.
 * - "I voted": no Election Day morning reminder. "Stop my reminders": none of either kind.
 * - "Resume my reminders": undoes the stop (nothing else does: a new pledge never does), the reminders not yet sent
 *   queued again.
 * - "Change my plan": a new day, way and time of day; the stop and "I voted" stay; reminders of a new day queued.
 * Idempotent: a second press changes nothing. The link's id must be the plan's current one, or a held pledge's
 * (which the same buttons change alone: it is never reminded); 404 otherwise, with one message that says nothing
 * about whose plan it was.
 */

export type PlanUpdate =
  | { action: 'voted' | 'stop' | 'resume' }
  | { action: 'change'; day: string; method: PlanMethod; timeOfDay: PlanTime | null };
export type PlanUpdateStatus = 'voted' | 'stopped' | 'resumed' | 'changed';

const STATUS = { voted: 'voted', stop: 'stopped', resume: 'resumed', change: 'changed' } as const;
type Field = 'eveEmail' | 'eveSms' | 'morningEmail' | 'morningSms';
const DELIVERIES: Field[] = ['eveEmail', 'eveSms', 'morningEmail', 'morningSms'];

export async function updateVotePlan(
  linkId: string,
  update: PlanUpdate,
  now = new Date(),
): Promise<PlanUpdateStatus> {
  const found = await recordForLink(linkId);
  if (!found) throw new HttpError(404, VOTE_PLAN_MESSAGES.badLink);
  const at = now.toISOString();
  const { calendar } = await getElectionCalendar();
  if (update.action === 'change') checkPlanDay(calendar, now, update.day, update.method);
  const next = await upsert<unknown>(votePlans(), found.key, (raw) => {
    const cur = raw ? parsePlan(raw) : null;
    if (cur?.linkId !== linkId) return UNCHANGED;
    const changed = apply(cur, update, at);
    return changed ?? UNCHANGED;
  });
  // A plan's reminders that are due again (a resumed plan, a new day), queued; a held pledge is never reminded.
  const plan = parsePlan(next);
  const isPlan = plan !== null && found.key === planKey(plan.round, plan.id);
  if (isPlan && !plan.stoppedAt && (update.action === 'resume' || update.action === 'change')) {
    const clock = campaignWallClock(now);
    if (plan.smsConsent || plan.emailConsent)
      for (const which of PLAN_REMINDERS) {
        const w = reminderWindow(calendar, plan, which);
        if (w && clock < w.lapses) await votePlans().create(dueKey(w.due, which, plan.round, plan.id), {});
      }
  }
  return STATUS[update.action];
}

/** The plan after the update, or null when it changes nothing. */
function apply(cur: StoredVotePlan, update: PlanUpdate, at: string): StoredVotePlan | null {
  switch (update.action) {
    case 'voted':
      return cur.votedAt ? null : { ...cur, votedAt: at, updatedAt: at };
    case 'stop':
      return cur.stoppedAt ? null : { ...cur, stoppedAt: at, updatedAt: at };
    case 'resume': {
      if (!cur.stoppedAt) return null;
      // The deliveries the job skipped only because of the stop are open again (sent ones stay sent).
      const reopened = Object.fromEntries(
        DELIVERIES.filter((f) => cur[f]?.status === 'skipped' && cur[f]?.error === SKIPPED_STOPPED).map(
          (f) => [f, null],
        ),
      );
      return { ...cur, ...reopened, stoppedAt: null, updatedAt: at };
    }
    case 'change': {
      const same = cur.day === update.day && cur.method === update.method;
      if (same && cur.timeOfDay === update.timeOfDay) return null;
      // A new day or way is a new reminder: its deliveries start again. The same day keeps what was sent.
      const fresh = same ? {} : Object.fromEntries(DELIVERIES.map((f) => [f, null]));
      return {
        ...cur,
        ...fresh,
        day: update.day,
        method: update.method,
        timeOfDay: update.timeOfDay,
        updatedAt: at,
      };
    }
  }
}
