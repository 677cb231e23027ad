import { countActivity } from '../activity/counts.ts';
import { createHash, randomBytes } from 'node:crypto';
import { PLAN_CONSENT } from '../../../content/consent.ts';
import { campaignWallClock } from '../../campaign-time.ts';
import type { ElectionCalendar, ElectionStage } from '../../election-stage.ts';
import { DEFAULT_LANG } from '../../lang.ts';
import { localizedPath } from '../../lang-paths.ts';
import type { GivenConsent, StoredVotePlan, VotePlanData } from '../../schemas/vote-plan.ts';
import {
  PLAN_REMINDERS,
  planDays,
  planPagePath,
  planRound,
  reminderWindow,
  roundDays,
  VOTE_PLAN_MESSAGES,
} from '../../vote-plan.ts';
import { getElectionCalendar } from '../election/calendar.ts';
import { HttpError } from '../errors.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { hashed } from '../storage/keys.ts';
import { appendConsentEvent, emptyEvent } from '../texting/text-list.ts';
import { linkPerson } from '../people/link.ts';
import {
  dueKey,
  linkKey,
  NEW_PLAN_STATE,
  parsePlan,
  planKey,
  pledgeKey,
  recentKey,
  votePlans,
  type PlanRound,
} from './record.ts';

/*
 * A plan to vote from the form on /vote (docs/decisions/158-plan-to-vote.md). The endpoint
 * (netlify/functions/vote-plan.mts) has already checked the phone's country and type, this IP's posts and texts,
 * and the captcha. Here: the day against the calendar and the clock, then, for a contact without a plan, the plan
 * stored, its link, its staff-list marker, its reminders queued, and the text consent appended to the text list's
 * consent log.
 *
 * A plan belongs to its voter: a pledge naming a contact that already has a plan this round changes nothing of it
 * (not its day, its link, its "Stop my reminders", its consents) and texts nobody. It is held apart under its own
 * link (`pledge/<round>/<linkId>`), never reminded, and answered exactly like a new plan (same status, body and
 * page, about the same store work), so pledges cannot tell who has a plan. The voter changes their plan from its own
 * link (update.ts).
 */

export interface PlanRequestMeta {
  ip: string | null;
  userAgent: string | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The form is closed once the polls have closed: a stale cached page must not take a plan (410). */
export const plansClosed = () => new HttpError(410, VOTE_PLAN_MESSAGES.closed);

/**
 * The day a plan (or a change of plan) names, checked against the calendar at `now`: 410 once the polls have closed,
 * 400 on the `day` field for a day that has passed, is not one of the round's, or is too late by mail.
 */
export function checkPlanDay(
  calendar: ElectionCalendar,
  now: Date,
  day: string,
  method: VotePlanData['method'],
): ElectionStage {
  const stage = planRound(calendar, now);
  if (!stage) throw plansClosed();
  if (!planDays(calendar, now, method).some((d) => d.date === day)) {
    const ofRound = roundDays(calendar, stage.dates).some((d) => d.date === day);
    const open = planDays(calendar, now).some((d) => d.date === day);
    const message = open
      ? VOTE_PLAN_MESSAGES.dayMail
      : ofRound
        ? VOTE_PLAN_MESSAGES.dayPast
        : VOTE_PLAN_MESSAGES.day;
    throw new HttpError(400, message, { fields: { day: message } });
  }
  return stage;
}

export async function submitVotePlan(
  input: VotePlanData,
  meta: PlanRequestMeta,
  now = new Date(),
): Promise<{ plan: StoredVotePlan; next: string }> {
  const { calendar } = await getElectionCalendar();
  const stage = checkPlanDay(calendar, now, input.day, input.method);

  const at = now.toISOString();
  const lang = input.lang ?? DEFAULT_LANG;
  const round: PlanRound = stage.round;
  const id = hashed(input.phone ?? input.email!);
  const linkId = randomBytes(16).toString('base64url');
  const consent = (given: boolean, channel: 'sms' | 'email'): GivenConsent | null =>
    given ? { at, ...PLAN_CONSENT[lang][channel] } : null;
  const fresh: StoredVotePlan = {
    id,
    round,
    linkId,
    day: input.day,
    method: input.method,
    timeOfDay: input.timeOfDay ?? null,
    bringing: input.bringing ?? null,
    name: input.name,
    phone: input.phone ?? null,
    email: input.email ?? null,
    lang,
    smsConsent: consent(input.smsConsent, 'sms'),
    emailConsent: consent(input.emailConsent, 'email'),
    ...NEW_PLAN_STATE,
    createdAt: at,
    updatedAt: at,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
  };

  const next = localizedPath(planPagePath(linkId), lang);
  // 1. The link first, whichever branch follows: a plan whose write fails leaves a pointer to nothing
  //    (recordForLink checks the plan's linkId, then this link's held pledge).
  await votePlans().put(linkKey(linkId), { round, id });
  // 2. The plan, only when this contact has none this round. An existing plan is never read into the answer nor
  //    changed: not replaced, not resumed, its link kept (a record that no longer parses is replaced).
  let held = false;
  await upsert<unknown>(votePlans(), planKey(round, id), (raw) => {
    held = parsePlan(raw) !== null;
    return held ? UNCHANGED : fresh;
  });
  if (held) {
    // Held apart under its own link: the pledger's page shows what they typed, like any new plan's, and its buttons
    // work on it alone. No reminder is queued and the staff list does not show it; the text consent typed for a
    // number that is not the pledger's to give is recorded as held (the same log work a new plan does).
    await votePlans().create(pledgeKey(round, linkId), fresh);
    await logTextConsent(fresh, 'plan_reminder_opt_in_held', meta, pledgeKey(round, linkId));
    // Linked like any typed form, marked held (the same call as a new plan's: docs/decisions/149-people.md).
    const pledged = pledgeKey(round, linkId);
    await linkPerson({
      source: 'vote_plan',
      store: 'vote-plans',
      key: pledged,
      ...fresh,
      detail: { round, held: 1 },
      at: now,
    });
    return { plan: fresh, next };
  }
  const plan = fresh;

  // 3. The staff list's marker (idempotent: created once, at the first plan's time).
  const first = await votePlans().create(recentKey(round, plan.createdAt, id), {});
  await linkPerson({
    source: 'vote_plan',
    store: 'vote-plans',
    key: planKey(round, id),
    ...plan,
    detail: { round },
    at: now,
  });
  if (first)
    await countActivity({
      kind: 'signup.plan',
      id: `${round}-${id}`,
      at: plan.createdAt,
      source: 'page:vote',
    });

  // 4. The reminders this plan gets, queued (a key per reminder; an old plan's keys are dropped by the job).
  const clock = campaignWallClock(now);
  if (plan.smsConsent || plan.emailConsent)
    for (const which of PLAN_REMINDERS) {
      const w = reminderWindow(calendar, plan, which);
      if (w && clock < w.lapses) await votePlans().create(dueKey(w.due, which, round, id), {});
    }

  // 5. The text consent, in the same append-only log as every other text opt-in.
  await logTextConsent(plan, 'plan_reminder_opt_in', meta, planKey(round, id));
  return { plan, next };
}

/** A plan's (or a held pledge's) text consent, appended to the text list's consent log. */
async function logTextConsent(
  plan: StoredVotePlan,
  type: 'plan_reminder_opt_in' | 'plan_reminder_opt_in_held',
  meta: PlanRequestMeta,
  refKey: string,
): Promise<void> {
  if (!plan.smsConsent || !plan.phone) return;
  await appendConsentEvent({
    ...emptyEvent(hashed(plan.phone), type, plan.createdAt),
    phone: plan.phone,
    email: plan.email,
    firstName: plan.name.slice(0, 80),
    consentText: plan.smsConsent.text,
    consentVersion: plan.smsConsent.version,
    consentTextSha256: sha256(plan.smsConsent.text),
    lang: plan.lang,
    sourcePage: localizedPath('/vote', plan.lang),
    ip: meta.ip,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, 512) : null,
    refKey,
  });
}
