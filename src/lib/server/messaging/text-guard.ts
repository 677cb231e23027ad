import { CAMPAIGN_TIME_ZONE } from '../../campaign-time.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { StoredRsvpSchema } from '../../schemas/rsvp.ts';
import { sendSms, SmsSendError } from '../adapters/sms.ts';
import { rsvpKey } from '../events/rsvp-keys.ts';
import { phoneRefusal } from '../forms/phone-policy.ts';
import { reserveDailyText, reserveTextToNumber } from '../forms/text-limits.ts';
import { appendConsentEvent, emptyEvent, getPerson, markOptedOut } from '../forms/text-list.ts';
import { hashed, kv } from '../store.ts';
import type { PlanReminder } from '../../vote-plan.ts';
import { getPlan, type PlanRound } from '../vote-plans/record.ts';

/**
 * The one way the site sends a text (docs/decisions/080-text-guard.md).
 * `sendSms` (src/lib/server/adapters/sms.ts) is imported by this module only;
 * tests/unit/text-guard-paths.test.ts fails if any other module in src/,
 * netlify/ or scripts/ names it. Every text, whatever causes it, passes the
 * same checks at the moment of sending, in this order (cheap reads first, the
 * counters last, so a refused text spends no allowance):
 *
 * 1. the number: a country in SMS_ALLOWED_COUNTRIES and a textable type (no
 *    premium, shared-cost, personal or special NANP ranges: phone-policy.ts);
 * 2. consent on record for this purpose, read fresh: the text list's person is
 *    subscribed (a sign-up confirmation), or the RSVP asked for a reminder to
 *    this very number and is not cancelled (a reminder), or the plan to vote
 *    gave text consent for this number and its reminders are not stopped;
 * 3. not opted out: the person's STOP state, read fresh at dispatch (a STOP to
 *    any campaign text stops every kind of text);
 * 4. quiet hours in the recipient's time zone, for the purposes that have them;
 * 5. per-number texts a day (and one confirmation a day), then the site's
 *    daily cap SMS_DAILY_CAP (text-limits.ts, the one definition of each).
 *
 * Per-source (IP) limits are taken where a request asks for a text, since a
 * reminder goes out a day later from a job with no IP: the sign-up's
 * `reserveFromIp` and the RSVP's `reserveTextFromIp` share one counter.
 *
 * A send the carrier refuses because the number opted out there (Twilio
 * 21610) is recorded as a STOP (consent log `carrier_opt_out`, person opted
 * out), so no later text tries it again.
 *
 * Idempotency stays with the caller, which claims its delivery before calling
 * (a new person's one confirmation; a reminder's `sending` claim under
 * compare-and-set): a refused or failed text is recorded, never retried twice.
 */

/** Why a text is sent; each has its consent and its quiet-hours rule. */
export type TextPurpose = 'signup_confirmation' | 'rsvp_reminder' | 'plan_reminder';

export const TEXT_PURPOSES = {
  /** The answer to the person's own sign-up, seconds after it: not a campaign-timed text. */
  signup_confirmation: { quietHours: false },
  /** Sent by a scheduled job, so it keeps to the send window. */
  rsvp_reminder: { quietHours: true },
  /** A plan-to-vote reminder (docs/decisions/111-plan-reminders.md): sent by a scheduled job, in the window. */
  plan_reminder: { quietHours: true },
} as const satisfies Record<TextPurpose, { quietHours: boolean }>;

/** Where the consent for a text is on record. */
export type TextConsent =
  | { purpose: 'signup_confirmation' }
  | { purpose: 'rsvp_reminder'; eventId: number; rsvpId: string }
  | { purpose: 'plan_reminder'; round: PlanRound; planId: string; reminder: PlanReminder };

/**
 * Quiet hours: texts that keep to them go out only from 9:00 until 20:00 in
 * the recipient's time zone (47 CFR 64.1200(c)(1) allows 8-21; stricter states
 * allow 8-20 or 9-20, so 9-20 fits all of them).
 */
export const SEND_WINDOW = { fromHour: 9, untilHour: 20 } as const;

/**
 * The recipient's time zone. Today every number gets the campaign's (New
 * Orleans): the place to plug in a zone from the number's area code or the
 * person's ZIP later, with the campaign's zone as the fallback.
 */
export function recipientTimeZone(_phone: string): string {
  return CAMPAIGN_TIME_ZONE;
}

/** The hour (0-23) at `now` in `timeZone`. */
export function localHour(now: Date, timeZone: string): number {
  return Number(
    new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(now),
  );
}

/** Whether `now` is inside the send window in `timeZone`. */
export function insideSendWindow(now: Date, timeZone: string = CAMPAIGN_TIME_ZONE): boolean {
  const h = localHour(now, timeZone);
  return h >= SEND_WINDOW.fromHour && h < SEND_WINDOW.untilHour;
}

export interface TextRequest {
  /** E.164 number. */
  to: string;
  body: string;
  consent: TextConsent;
  /**
   * The request took this text's slot of SMS_DAILY_CAP already (a sign-up is
   * refused at the door when the cap is spent: text-limits.ts reserveForSignup).
   */
  dailySlotTaken?: boolean;
  now?: Date;
}

/** Why the guard did not send. */
export type TextRefusal =
  'number_not_allowed' | 'no_consent' | 'opted_out' | 'quiet_hours' | 'number_limit' | 'daily_cap';

/** What a refusal is recorded as, for staff (a delivery's `error`). */
export const TEXT_REFUSALS: Record<TextRefusal, string> = {
  number_not_allowed: 'Number not allowed (country or number type)',
  no_consent: 'No consent on record',
  opted_out: 'Opted out',
  quiet_hours: 'Quiet hours',
  number_limit: 'Texts to this number today used up',
  daily_cap: 'Daily text cap (SMS_DAILY_CAP) reached',
};

export type TextOutcome = { sent: true; id: string } | { sent: false; refusal: TextRefusal };

async function hasConsent(consent: TextConsent, to: string, subscribed: boolean): Promise<boolean> {
  if (consent.purpose === 'signup_confirmation') return subscribed;
  if (consent.purpose === 'plan_reminder') {
    // The plan's own text consent, for this very number, reminders not stopped; no morning text after "I voted".
    const plan = await getPlan(consent.round, consent.planId);
    return Boolean(
      plan?.smsConsent &&
      plan.phone === to &&
      !plan.stoppedAt &&
      !(consent.reminder === 'morning' && plan.votedAt),
    );
  }
  const r = await kv('rsvps').get<unknown>(rsvpKey(consent.eventId, consent.rsvpId));
  const rec = r ? StoredRsvpSchema.safeParse(r.value) : null;
  // The roster decides who is going (the job reminds its going entries); the record must not be cancelled.
  return Boolean(
    rec?.success && rec.data.smsReminder && rec.data.phone === to && rec.data.status !== 'cancelled',
  );
}

/**
 * Sends one text if every check passes; otherwise sends nothing and says why.
 * A send that fails at the provider throws (SmsSendError, ConfigError): the
 * caller records the failure.
 */
export async function sendGuardedText(req: TextRequest): Promise<TextOutcome> {
  const now = req.now ?? new Date();
  const refuse = (refusal: TextRefusal): TextOutcome => ({ sent: false, refusal });
  if (phoneRefusal(req.to) !== null) return refuse('number_not_allowed');
  const person = await getPerson(hashed(req.to));
  if (person?.smsStatus === 'opted_out') return refuse('opted_out');
  if (!(await hasConsent(req.consent, req.to, person?.smsStatus === 'subscribed')))
    return refuse('no_consent');
  if (TEXT_PURPOSES[req.consent.purpose].quietHours && !insideSendWindow(now, recipientTimeZone(req.to)))
    return refuse('quiet_hours');
  const at = now.getTime();
  if (!(await reserveTextToNumber(req.to, req.consent.purpose === 'signup_confirmation', at)))
    return refuse('number_limit');
  if (!req.dailySlotTaken && !(await reserveDailyText(at))) return refuse('daily_cap');
  try {
    const sent = await sendSms({ to: req.to, body: req.body });
    return { sent: true, id: sent.id };
  } catch (err) {
    if (err instanceof SmsSendError && err.code === CARRIER_OPT_OUT)
      await recordCarrierOptOut(req.to, now, person?.lang);
    throw err;
  }
}

/** Twilio's answer for a number that opted out with the carrier (it replied STOP to our sender). */
export const CARRIER_OPT_OUT = 21610;

/** The carrier's opt-out is a STOP: logged, and the number is not texted again. */
async function recordCarrierOptOut(phone: string, now: Date, lang: Lang = DEFAULT_LANG): Promise<void> {
  const at = now.toISOString();
  try {
    await appendConsentEvent({
      ...emptyEvent(hashed(phone), 'carrier_opt_out', at),
      phone,
      lang,
      error: `Twilio ${CARRIER_OPT_OUT}: the recipient opted out with the carrier`,
    });
    await markOptedOut(phone, at, lang);
  } catch (e) {
    console.error('[text-guard] could not record a carrier opt-out', e);
  }
}
