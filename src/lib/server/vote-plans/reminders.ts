import { copyFor } from '../../../content/copy.ts';
import { IDENTITY } from '../../../content/identity.ts';
import { planLines } from '../../../content/vote-plan-lines.ts';
import { campaignWallClock, formatTime } from '../../campaign-time.ts';
import type { ElectionCalendar } from '../../election-stage.ts';
import { LANG_TAGS, localizedPath } from '../../lang-paths.ts';
import type { StoredVotePlan } from '../../schemas/vote-plan.ts';
import type { Delivery } from '../../schemas/rsvp.ts';
import { planPagePath, reminderWindow, roundOf, type PlanReminder } from '../../vote-plan.ts';
import { sendEmail, type EmailMessage } from '../adapters/email.ts';
import { getElectionCalendar } from '../election/calendar.ts';
import { greeting } from '../../merge-fields.ts';
import { env } from '../env.ts';
import { appendConsentEvent, emptyEvent } from '../texting/text-list.ts';
import {
  claimDelivery,
  deliveryFailure,
  finishDelivery,
  releaseDelivery,
  type DeliveryRecord,
} from '../messaging/delivery-claims.ts';
import { hashed } from '../storage/keys.ts';
import { registerConsentReader, sendGuardedText, TEXT_REFUSALS } from '../texting/text-guard.ts';
import {
  DUE_PREFIX,
  dueKey,
  getPlan,
  parseDueKey,
  parsePlan,
  planKey,
  SKIPPED_STOPPED,
  votePlans,
  type PlanRound,
} from './record.ts';

/*
 * Plan-to-vote reminders (docs/decisions/158-plan-to-vote.md), drained every 15 minutes by the scheduled function
 * netlify/functions/vote-plan-reminders.mts. The queue is `due/<campaign wall clock>/<eve|morning>/<round>/<id>`
 * (record.ts), in time order: a run takes at most BATCH due keys from its head. For each, the plan is read fresh
 * and the reminder re-derived from the calendar as it is now (a moved day re-queues it; a lapsed one is recorded
 * as skipped); each delivery (email, text) is claimed on the plan under compare-and-set before it is sent, so a
 * retried, killed or twice-running job never sends twice; the key is deleted once the plan's deliveries for it are
 * settled. A text the guard holds for quiet hours in the recipient's zone is given back and re-queued 30 minutes
 * later, one held because this minute's send rate (shared with broadcasts) is spent a minute later, so neither
 * blocks the queue's head.
 */

/**
 * A plan reminder's consent, which the text guard asks at the moment of sending (registered here, where the reminder
 * is sent: texting/ does not import vote-plans/): the plan's own text consent, for this very number, reminders not
 * stopped; no morning text after "I voted".
 */
registerConsentReader('plan_reminder', async ({ round, planId, reminder }, to) => {
  const plan = await getPlan(round, planId);
  return Boolean(
    plan?.smsConsent && plan.phone === to && !plan.stoppedAt && !(reminder === 'morning' && plan.votedAt),
  );
});

/** Due reminders one run handles at most (each costs a handful of store calls and two sends). */
export const BATCH = 40;
/** How far a text held for quiet hours is put back. */
const QUIET_RETRY_MS = 30 * 60_000;
/** When the minute's send rate is spent (shared with broadcasts): the next run after the minute turns. */
const RATE_RETRY_MS = 60_000;

type Field = 'eveEmail' | 'eveSms' | 'morningEmail' | 'morningSms';
const fieldOf = (which: PlanReminder, channel: 'Email' | 'Sms') => `${which}${channel}` as Field;

const delivery = (round: PlanRound, id: string, field: Field): DeliveryRecord<StoredVotePlan, Field> => ({
  store: votePlans(),
  key: planKey(round, id),
  parse: parsePlan,
  field,
});

export interface PlanReminderRun {
  /** Due keys taken from the queue. */
  due: number;
  emails: number;
  texts: number;
  /** Deliveries recorded as skipped (refused by the guard, lapsed, stopped, voted). */
  skipped: number;
  /** Texts held for quiet hours and re-queued. */
  held: number;
}

const siteUrl = (path: string) => new URL(path, env().SITE_URL).href;

/** The reminder's words for one plan, in the plan's language. */
export function reminderMessages(
  calendar: ElectionCalendar,
  plan: StoredVotePlan,
  which: PlanReminder,
): { text: string; email: EmailMessage | null } {
  const lang = plan.lang;
  const words = copyFor(lang).vote.planCopy.reminder;
  const voteCopy = copyFor(lang).vote.voteCopy;
  const lines = planLines(calendar, plan, lang, `plan-${plan.round}-${plan.id}`);
  const link = siteUrl(localizedPath(planPagePath(plan.linkId), lang));
  const close = formatTime(roundOf(calendar, plan.round)?.electionDay.close ?? '20:00', LANG_TAGS[lang].intl);
  const text =
    which === 'eve'
      ? words.eveText(IDENTITY.smsProgramName, lines.day, lines.how, link)
      : words.morningText(IDENTITY.smsProgramName, close, link);
  const email: EmailMessage | null = plan.email
    ? {
        to: plan.email,
        subject: which === 'eve' ? words.eveSubject(lines.day) : words.morningSubject,
        text: [
          greeting(plan.name, lang),
          '',
          which === 'eve' ? words.eveIntro(lines.how, lines.day) : words.morningIntro(close),
          '',
          lines.where,
          plan.method === 'in-person' ? words.pollingPlace(voteCopy.pollingPlace.href) : '',
          '',
          words.planLink(link),
          words.stopLink(link),
          '',
          `${IDENTITY.committeeName}`,
        ]
          .filter((l, i, all) => l !== '' || all[i - 1] !== '')
          .join('\n'),
      }
    : null;
  return { text, email };
}

/** Every due key at the queue's head (wall clock at or before `clock`), at most `max`. */
async function dueHead(clock: string, max: number): Promise<string[]> {
  const out: string[] = [];
  for await (const page of votePlans().keys(DUE_PREFIX)) {
    for (const k of page) {
      const due = parseDueKey(k);
      if (due && due.due > clock) return out;
      out.push(k);
      if (out.length >= max) return out;
    }
  }
  return out;
}

const settled = (status: Delivery['status'], at: string, error: string | null = null): Delivery => ({
  status,
  at,
  error,
});

/** Marks the plan's still-unclaimed deliveries of a reminder as skipped (why, for staff). */
async function skipRest(plan: StoredVotePlan, which: PlanReminder, at: string, why: string): Promise<number> {
  let n = 0;
  for (const channel of ['Email', 'Sms'] as const) {
    const field = fieldOf(which, channel);
    const wanted = channel === 'Email' ? plan.emailConsent : plan.smsConsent;
    if (!wanted || plan[field] !== null) continue;
    const rec = delivery(plan.round, plan.id, field);
    if (await claimDelivery(rec, at)) {
      await finishDelivery(rec, settled('skipped', at, why));
      n += 1;
    }
  }
  return n;
}

/** One run: the due head, each reminder sent at most once. `now` is injectable for tests. */
export async function runPlanReminders(now = new Date(), max = BATCH): Promise<PlanReminderRun> {
  const run: PlanReminderRun = { due: 0, emails: 0, texts: 0, skipped: 0, held: 0 };
  const clock = campaignWallClock(now);
  const keys = await dueHead(clock, max);
  if (keys.length === 0) return run;
  const { calendar } = await getElectionCalendar();
  for (const k of keys) {
    run.due += 1;
    const due = parseDueKey(k);
    if (!due) {
      await votePlans().delete(k);
      continue;
    }
    const keep = await handleDue(calendar, due, now, clock, run);
    if (!keep) await votePlans().delete(k);
  }
  return run;
}

/** Handles one due reminder; true when its key must stay (it was re-queued under another key otherwise). */
async function handleDue(
  calendar: ElectionCalendar,
  due: NonNullable<ReturnType<typeof parseDueKey>>,
  now: Date,
  clock: string,
  run: PlanReminderRun,
): Promise<boolean> {
  const at = now.toISOString();
  const plan = await getPlan(due.round, due.id);
  if (!plan) return false;
  const window = reminderWindow(calendar, plan, due.which);
  if (!window) return false; // this plan no longer gets this reminder (a new plan, a moved day)
  if (due.due < window.due) {
    // The day moved later (or a newer plan): queued again at its time.
    await votePlans().create(dueKey(window.due, due.which, due.round, due.id), {});
    return false;
  }
  if (clock >= window.lapses) {
    run.skipped += await skipRest(plan, due.which, at, 'Lapsed: the time for this reminder had passed');
    return false;
  }
  if (plan.stoppedAt) {
    run.skipped += await skipRest(plan, due.which, at, SKIPPED_STOPPED);
    return false;
  }
  if (due.which === 'morning' && plan.votedAt) {
    run.skipped += await skipRest(plan, due.which, at, 'Already voted');
    return false;
  }
  const messages = reminderMessages(calendar, plan, due.which);

  // Email: to the address the voter gave, with its stop link.
  const emailField = fieldOf(due.which, 'Email');
  if (plan.emailConsent && messages.email && plan[emailField] === null) {
    const rec = delivery(plan.round, plan.id, emailField);
    if (await claimDelivery(rec, at)) {
      try {
        await sendEmail(messages.email);
        await finishDelivery(rec, settled('sent', at));
        run.emails += 1;
      } catch (err) {
        await finishDelivery(rec, settled('failed', at, deliveryFailure(err)));
      }
    }
  }

  // Text: every check (number, this plan's consent, STOP read fresh, quiet hours, caps) is the guard's.
  const smsField = fieldOf(due.which, 'Sms');
  if (!plan.smsConsent || !plan.phone || plan[smsField] !== null) return false;
  const rec = delivery(plan.round, plan.id, smsField);
  const claimed = await claimDelivery(rec, at);
  if (!claimed?.phone) return false;
  try {
    const sent = await sendGuardedText({
      to: claimed.phone,
      body: messages.text,
      lang: plan.lang,
      consent: { purpose: 'plan_reminder', round: plan.round, planId: plan.id, reminder: due.which },
      now,
    });
    if (!sent.sent && (sent.refusal === 'quiet_hours' || sent.refusal === 'send_rate')) {
      // Night where the recipient is, or this minute's send rate spent: given back, and queued again a little
      // later (the head stays free).
      await releaseDelivery(rec, at);
      const retry = sent.refusal === 'quiet_hours' ? QUIET_RETRY_MS : RATE_RETRY_MS;
      const later = campaignWallClock(new Date(now.getTime() + retry));
      await votePlans().create(dueKey(later, due.which, due.round, due.id), {});
      run.held += 1;
      return false;
    }
    if (!sent.sent) {
      await finishDelivery(rec, settled('skipped', at, TEXT_REFUSALS[sent.refusal]));
      run.skipped += 1;
      return false;
    }
    await finishDelivery(rec, settled('sent', at));
    await appendConsentEvent({
      ...emptyEvent(hashed(claimed.phone), 'plan_reminder_sent', at),
      phone: claimed.phone,
      lang: plan.lang,
      messageId: sent.id,
      refKey: planKey(plan.round, plan.id),
    }).catch((e: unknown) => console.error('[plan reminders] could not log the text', e));
    run.texts += 1;
  } catch (err) {
    await finishDelivery(rec, settled('failed', at, deliveryFailure(err)));
  }
  return false;
}
