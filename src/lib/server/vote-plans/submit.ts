import { createHash, randomBytes } from 'node:crypto';
import { PLAN_CONSENT } from '../../../content/consent.ts';
import { campaignWallClock } from '../../campaign-time.ts';
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
import { appendConsentEvent, emptyEvent } from '../forms/text-list.ts';
import { hashed, upsert } from '../store.ts';
import {
  dueKey,
  linkKey,
  NEW_PLAN_STATE,
  parsePlan,
  planKey,
  recentKey,
  votePlans,
  type PlanRound,
} from './record.ts';

/*
 * A plan to vote from the form on /vote (docs/decisions/110-plan-to-vote.md). The endpoint
 * (netlify/functions/vote-plan.mts) has already checked the phone's country and type, this IP's posts and texts,
 * and the captcha. Here: the day against the calendar and the clock, then the plan stored (the newest plan from a
 * contact replaces the older one whole), its link, its staff-list marker, its reminders queued, and the text
 * consent appended to the text list's consent log.
 */

export interface PlanRequestMeta {
  ip: string | null;
  userAgent: string | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The form is closed once the polls have closed: a stale cached page must not take a plan (410). */
export const plansClosed = () => new HttpError(410, VOTE_PLAN_MESSAGES.closed);

export async function submitVotePlan(
  input: VotePlanData,
  meta: PlanRequestMeta,
  now = new Date(),
): Promise<{ plan: StoredVotePlan; next: string }> {
  const { calendar } = await getElectionCalendar();
  const stage = planRound(calendar, now);
  if (!stage) throw plansClosed();
  if (!planDays(calendar, now, input.method).some((d) => d.date === input.day)) {
    const ofRound = roundDays(calendar, stage.dates).some((d) => d.date === input.day);
    const open = planDays(calendar, now).some((d) => d.date === input.day);
    const message = open
      ? VOTE_PLAN_MESSAGES.dayMail
      : ofRound
        ? VOTE_PLAN_MESSAGES.dayPast
        : VOTE_PLAN_MESSAGES.day;
    throw new HttpError(400, message, { fields: { day: message } });
  }

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

  // 1. The link first: a plan whose write fails leaves a pointer to nothing (planForLink checks the plan's linkId).
  await votePlans().put(linkKey(linkId), { round, id });
  // 2. The plan, replaced whole by the newest one (nothing of an older plan from the same contact is kept or
  //    shown, so a stranger who types someone's number sees only what they typed). The same day and method keep
  //    the reminders already sent and "I voted", so a double submit never reminds twice.
  let previous: StoredVotePlan | null = null;
  const plan = await upsert<unknown>(votePlans(), planKey(round, id), (raw) => {
    previous = raw ? parsePlan(raw) : null;
    if (!previous) return fresh;
    const same = previous.day === fresh.day && previous.method === fresh.method;
    return {
      ...fresh,
      createdAt: previous.createdAt,
      ...(same
        ? {
            votedAt: previous.votedAt,
            eveEmail: previous.eveEmail,
            eveSms: previous.eveSms,
            morningEmail: previous.morningEmail,
            morningSms: previous.morningSms,
          }
        : {}),
    } satisfies StoredVotePlan;
  }).then((v) => parsePlan(v)!);
  const prior = previous as StoredVotePlan | null;
  if (prior && prior.linkId !== linkId)
    await votePlans()
      .delete(linkKey(prior.linkId))
      .catch((e: unknown) => console.error('[vote-plan] could not drop an old link', e));

  // 3. The staff list's marker (idempotent: created once, at the first plan's time).
  await votePlans().create(recentKey(round, plan.createdAt, id), {});

  // 4. The reminders this plan gets, queued (a key per reminder; an old plan's keys are dropped by the job).
  const clock = campaignWallClock(now);
  if (plan.smsConsent || plan.emailConsent)
    for (const which of PLAN_REMINDERS) {
      const w = reminderWindow(calendar, plan, which);
      if (w && clock < w.lapses) await votePlans().create(dueKey(w.due, which, round, id), {});
    }

  // 5. The text consent, in the same append-only log as every other text opt-in.
  if (plan.smsConsent && plan.phone)
    await appendConsentEvent({
      ...emptyEvent(hashed(plan.phone), 'plan_reminder_opt_in', at),
      phone: plan.phone,
      email: plan.email,
      firstName: plan.name.slice(0, 80),
      consentText: plan.smsConsent.text,
      consentVersion: plan.smsConsent.version,
      consentTextSha256: sha256(plan.smsConsent.text),
      lang,
      sourcePage: localizedPath('/vote', lang),
      ip: meta.ip,
      userAgent: meta.userAgent ? meta.userAgent.slice(0, 512) : null,
      refKey: planKey(round, id),
    });
  return { plan, next: localizedPath(planPagePath(linkId), lang) };
}
