import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import type { StoredVotePlan } from '../../schemas/vote-plan.ts';
import { findSentSms, sendSms, SmsSendError } from '../adapters/sms.ts';
import { phoneRefusal } from './phone-policy.ts';
import { reserveDailyText, reserveTextToNumber } from './text-limits.ts';
import { appendConsentEvent, emptyEvent, getPerson, markOptedOut } from './text-list.ts';
import { countSegments } from '../../sms-segments.ts';
import { hashed } from '../storage/keys.ts';
import { spendRateNow } from './pacing.ts';
import { consentFor } from '../people/consent.ts';
import type { PlanReminder } from '../../vote-plan.ts';
import { pendingPhoneCode } from '../auth/staff-phone-codes.ts';
import { getUser } from '../auth/users.ts';
import { quietHoursAllow, recipientZones } from './quiet-hours.ts';
import { compliantText } from '../../text-compliance.ts';

/**
 * The one way the site sends a text (docs/decisions/151-texting.md).
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
 *    this very number and is not cancelled (a reminder), or the shift sign-up
 *    did and the volunteer still holds the slot (a shift's text), or the plan to vote
 *    gave text consent for this number and its reminders are not stopped, or
 *    a staff member asked for a code to this very number (its verification)
 *    or verified it as their own phone (a broadcast's test text);
 * 3. not opted out: the person's STOP state, read fresh at dispatch (a STOP to
 *    any campaign text stops every kind of text);
 * 4. quiet hours in the recipient's time zone (from the number's area code:
 *    quiet-hours.ts quietHoursAllow, the one rule the broadcast engine also asks
 *    before leasing a chunk), for the purposes that have them;
 * 5. the site's send rate per minute (BROADCAST_RATE_PER_MINUTE, one budget with
 *    the broadcast engine's Pacer: pacing.ts) for the texts jobs send one by one;
 * 6. per-number texts a day (and one confirmation a day), for the purposes
 *    sent to the lists' people (not a staff member's own phone: its texts are
 *    counted per member, so a test never spends a subscriber's allowance),
 *    then the site's daily cap SMS_DAILY_CAP (text-limits.ts, the one
 *    definition of each) for the purposes that count against it.
 *
 * Whatever the caller wrote, the text sent names the program and carries the
 * opt-out line in the language the caller chose the body by (`lang`; text-compliance.ts).
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

/**
 * Why a text is sent; each has its consent, its quiet-hours rule, whether it counts against SMS_DAILY_CAP and
 * whether the guard spends the site's per-minute send rate for it (`paced`: the reminders sent by jobs; a
 * broadcast's engine paces its own batches, docs/decisions/152-broadcasts.md; a sign-up's
 * confirmation answers the person at once), and whether it spends the number's texts a day (`numberCap`).
 */
export type TextPurpose =
  | 'signup_confirmation'
  | 'rsvp_reminder'
  | 'shift_reminder'
  | 'shift_notice'
  | 'plan_reminder'
  | 'broadcast'
  | 'staff_phone_code'
  | 'staff_test'
  | 'supporter_code';

export const TEXT_PURPOSES = {
  /** The answer to the person's own sign-up, seconds after it: not a campaign-timed text. */
  signup_confirmation: { quietHours: false, dailyCap: true, paced: false, numberCap: true },
  /** Sent by a scheduled job, so it keeps to the send window. */
  rsvp_reminder: { quietHours: true, dailyCap: true, paced: true, numberCap: true },
  /** A shift's sequence text (docs/decisions/181-shifts.md): sent by a scheduled job, in the window. */
  shift_reminder: { quietHours: true, dailyCap: true, paced: true, numberCap: true },
  /** A plan-to-vote reminder (docs/decisions/158-plan-to-vote.md): sent by a scheduled job, in the window. */
  plan_reminder: { quietHours: true, dailyCap: true, paced: true, numberCap: true },
  /**
   * A staff broadcast to the text list (docs/decisions/152-broadcasts.md): an
   * admin approved its recipients and cost, and the delivery engine paces it, so it does not spend the
   * daily cap that bounds what strangers can cause; every other check holds.
   */
  broadcast: { quietHours: true, dailyCap: false, paced: false, numberCap: true },
  /**
   * The code a staff member asked for, seconds ago, to verify their own phone
   * (docs/decisions/152-broadcasts.md): transactional, not campaign-timed, so no quiet hours; it
   * is bounded per member and per number where it is asked for (broadcasts/staff-phone.ts), not by the lists' caps.
   * STOP, the number's country and type still hold.
   */
  staff_phone_code: { quietHours: false, dailyCap: false, paced: false, numberCap: false },
  /**
   * A broadcast's test text to the member's own verified phone (133), at their request: counted per member
   * (STAFF_TESTS_PER_DAY), never against a number's texts a day, so a test cannot crowd out a real text.
   */
  staff_test: { quietHours: false, dailyCap: false, paced: false, numberCap: false },
  /**
   * A shift's time, place or cancellation changed by staff (docs/decisions/181-shifts.md, "Notices"): sent as staff
   * save, so it keeps to the send window (the email carries it regardless).
   */
  shift_notice: { quietHours: true, dailyCap: true, paced: false, numberCap: true },
  /**
   * A supporter's sign-in code to their own page (docs/decisions/182-supporter-page.md), asked for seconds ago
   * from the page: transactional, so no quiet hours; a stranger can ask for one, so it spends the number's texts a
   * day and the site's daily cap, besides its own limits per number and per network (supporters/text-code.ts).
   */
  supporter_code: { quietHours: false, dailyCap: true, paced: false, numberCap: true },
} as const satisfies Record<
  TextPurpose,
  { quietHours: boolean; dailyCap: boolean; paced: boolean; numberCap: boolean }
>;

/** Where the consent for a text is on record. */
export type TextConsent =
  | { purpose: 'signup_confirmation' }
  | { purpose: 'rsvp_reminder'; eventId: number; rsvpId: string }
  /** The volunteer asked for texts to this number and still holds a place on the slot. */
  | { purpose: 'shift_reminder'; eventId: number; slotId: string; personId: string }
  | { purpose: 'plan_reminder'; round: StoredVotePlan['round']; planId: string; reminder: PlanReminder }
  /** The person is subscribed to the text list, read at the moment of dispatch. */
  | { purpose: 'broadcast'; broadcastId: number }
  /** The member asked for a code to this number (their code in flight names it). */
  | { purpose: 'staff_phone_code'; userId: number }
  /** The number is the member's own verified phone, and the member is active. */
  | { purpose: 'staff_test'; userId: number; broadcastId: number }
  /** The shift sign-up (`shift/<event>/<person>`) asked for texts, with this very number. */
  | { purpose: 'shift_notice'; eventId: number; personKey: string }
  /** A live sign-in code for this very number is in flight (the number asked for it; a known person's). */
  | { purpose: 'supporter_code' };

export interface TextRequest {
  /** E.164 number. */
  to: string;
  body: string;
  /**
   * The language the caller chose the body by (the recipient's: the RSVP's, the plan's, the sign-up's, the
   * broadcast recipient's as queued): the opt-out line follows it, so the text sent is the one the broadcast's cost
   * counted (compliantText, src/lib/text-compliance.ts: one function, one source of the language).
   */
  lang: Lang;
  consent: TextConsent;
  /**
   * The request took this text's slot of SMS_DAILY_CAP already (a sign-up is
   * refused at the door when the cap is spent: text-limits.ts reserveForSignup).
   */
  dailySlotTaken?: boolean;
  now?: Date;
  /** The sending engine's delivery, for broadcasts (src/lib/server/broadcasts/engine.ts). */
  delivery?: {
    /** One per (broadcast, recipient): the outbox and the provider lookup know the message by it. */
    key: string;
    /** Where the provider reports this message's fate (Twilio's StatusCallback). */
    statusCallback?: string;
    /**
     * The delivery was claimed at this time by a worker that stopped before recording the result: the
     * provider is asked whether it took the message, and only if it did not is the text sent.
     */
    resumeSince?: Date;
  };
}

/** Why the guard did not send. */
export type TextRefusal =
  | 'number_not_allowed'
  | 'no_consent'
  | 'opted_out'
  | 'quiet_hours'
  | 'send_rate'
  | 'number_limit'
  | 'daily_cap';

/** What a refusal is recorded as, for staff (a delivery's `error`). */
export const TEXT_REFUSALS: Record<TextRefusal, string> = {
  number_not_allowed: 'Number not allowed (country or number type)',
  no_consent: 'No consent on record',
  opted_out: 'Opted out',
  quiet_hours: 'Quiet hours',
  send_rate: 'Send rate (BROADCAST_RATE_PER_MINUTE) used up this minute',
  number_limit: 'Texts to this number today used up',
  daily_cap: 'Daily text cap (SMS_DAILY_CAP) reached',
};

export type TextOutcome =
  | {
      sent: true;
      id: string;
      /** The text as sent (with the program name and opt-out line). */
      body: string;
      /** A resumed delivery the provider had already taken: nothing was sent now. */
      resumed?: boolean;
    }
  | { sent: false; refusal: TextRefusal };

/** A reminder's consent, which is on its own domain's record (the RSVP, the plan to vote). */
type RecordConsent = Extract<
  TextConsent,
  { purpose: 'rsvp_reminder' | 'plan_reminder' | 'shift_reminder' | 'shift_notice' | 'supporter_code' }
>;
type RecordPurpose = RecordConsent['purpose'];

/** Reads, at the moment of sending, whether the record consents to texts to this very number. */
export type ConsentReader<P extends RecordPurpose> = (
  consent: Extract<RecordConsent, { purpose: P }>,
  to: string,
) => Promise<boolean>;

const consentReaders: { [P in RecordPurpose]?: ConsentReader<P> } = {};

/**
 * The folder that owns a reminder's record registers its consent reader where it sends the reminder
 * (events/reminders.ts, events/shift-consent.ts, vote-plans/reminders.ts, supporters/text-code.ts): texting/ sits below those folders, which send through this guard,
 * so it does not import them (docs/decisions/153-storage.md, "The folders form a DAG"). The guard still asks the
 * reader itself, fresh, at the moment of sending; a purpose with no reader registered has no consent.
 */
export function registerConsentReader<P extends RecordPurpose>(purpose: P, reader: ConsentReader<P>): void {
  (consentReaders as Record<P, ConsentReader<P>>)[purpose] = reader;
}

async function hasConsent(consent: TextConsent, to: string, subscribed: boolean): Promise<boolean> {
  if (consent.purpose === 'signup_confirmation' || consent.purpose === 'broadcast') return subscribed;
  if (consent.purpose === 'staff_phone_code') return (await pendingPhoneCode(consent.userId))?.phone === to;
  if (consent.purpose === 'staff_test') {
    const member = await getUser(consent.userId);
    return Boolean(member?.isActive && member.phone === to);
  }
  if (consent.purpose === 'plan_reminder')
    return (await consentReaders.plan_reminder?.(consent, to)) ?? false;
  if (consent.purpose === 'shift_reminder')
    return (await consentReaders.shift_reminder?.(consent, to)) ?? false;
  if (consent.purpose === 'shift_notice') return (await consentReaders.shift_notice?.(consent, to)) ?? false;
  if (consent.purpose === 'supporter_code')
    return (await consentReaders.supporter_code?.(consent, to)) ?? false;
  return (await consentReaders.rsvp_reminder?.(consent, to)) ?? false;
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
  const body = compliantText(req.body, req.lang);
  const delivery = req.delivery;
  if (delivery?.resumeSince) {
    // Exactly once across a worker that stopped mid-send: ask before sending again.
    const found = await findSentSms({ to: req.to, body, since: delivery.resumeSince, key: delivery.key });
    if (found) return { sent: true, id: found, body, resumed: true };
  }
  if (person?.smsStatus === 'opted_out') return refuse('opted_out');
  // The person's one text state: a STOP from any phone of theirs, or a stop staff recorded (149).
  if ((await consentFor('text', req.to)).revoked) return refuse('opted_out');
  if (!(await hasConsent(req.consent, req.to, person?.smsStatus === 'subscribed')))
    return refuse('no_consent');
  const purpose = TEXT_PURPOSES[req.consent.purpose];
  if (purpose.quietHours && !quietHoursAllow(now, recipientZones(req.to))) return refuse('quiet_hours');
  const at = now.getTime();
  if (purpose.paced && !(await spendRateNow(countSegments(body).segments, at))) return refuse('send_rate');
  if (
    purpose.numberCap &&
    !(await reserveTextToNumber(req.to, req.consent.purpose === 'signup_confirmation', at))
  )
    return refuse('number_limit');
  if (purpose.dailyCap && !req.dailySlotTaken && !(await reserveDailyText(at))) return refuse('daily_cap');
  try {
    const sent = await sendSms({
      to: req.to,
      body,
      ...(delivery ? { key: delivery.key, statusCallback: delivery.statusCallback } : {}),
    });
    return { sent: true, id: sent.id, body };
  } catch (err) {
    if (err instanceof SmsSendError && err.code === CARRIER_OPT_OUT)
      await recordCarrierOptOut(req.to, now, person?.lang);
    throw err;
  }
}

/** Twilio's answer for a number that opted out with the carrier (it replied STOP to our sender). */
export const CARRIER_OPT_OUT = 21610;

/** The carrier's opt-out is a STOP: logged, and the number is not texted again (also from Twilio's status callback). */
export async function recordCarrierOptOut(
  phone: string,
  now: Date,
  lang: Lang = DEFAULT_LANG,
): Promise<void> {
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
