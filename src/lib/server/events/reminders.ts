import { CAMPAIGN_TIME_ZONE } from '../../campaign-time.ts';
import { StoredRsvpSchema, type Delivery, type StoredRsvp } from '../../schemas/rsvp.ts';
import { sendEmail } from '../adapters/email.ts';
import { campaignToday, events } from '../content/events.ts';
import { appendConsentEvent, emptyEvent } from '../texting/text-signups.ts';
import { hashed } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { insideSendWindow, localHour } from '../texting/quiet-hours.ts';
import { registerConsentReader, sendGuardedText, TEXT_REFUSALS } from '../texting/text-guard.ts';
import {
  claimDelivery,
  deliveryFailure,
  finishDelivery,
  releaseDelivery,
  type DeliveryRecord,
} from '../messaging/delivery-claims.ts';
import { reminderEmail, reminderText } from './rsvp-email.ts';
import { takesRsvps } from '../../schemas/rsvp-rules.ts';
import { getRoster, getRsvp, rsvpKey } from './rsvp.ts';
import { getSequenceConfig } from './shift-sequence.ts';

/**
 * Day-before reminders, run every hour by the scheduled function
 * netlify/functions/event-reminders.mts. For each event tomorrow (campaign
 * time) every person going gets one email, and one text if they opted in and
 * the text guard lets it through (src/lib/server/texting/text-guard.ts:
 * allowed number, consent, STOP, quiet hours, per-number and daily caps). Each delivery is
 * claimed on the person's record under compare-and-set before it is sent, so
 * overlapping runs never send twice; a run that stops mid-send leaves the
 * claim ('sending') and the reminder is not retried (better one missed than
 * two sent). An event whose confirm-and-remind sequence has its day-before step
 * on (staff turned it on: docs/decisions/181-shifts.md, "The event without
 * slots") is skipped: its day-before ask replaces this reminder, so nobody gets both.
 */

/**
 * An RSVP reminder's consent, which the text guard asks at the moment of sending (registered here, where the reminder
 * is sent: texting/ does not import events/): the RSVP asked for a reminder to this very number and is not cancelled.
 * The roster decides who is going (the job reminds its going entries).
 */
registerConsentReader('rsvp_reminder', async ({ eventId, rsvpId }, to) => {
  const r = await kv('rsvps').get<unknown>(rsvpKey(eventId, rsvpId));
  const rec = r ? StoredRsvpSchema.safeParse(r.value) : null;
  return Boolean(
    rec?.success && rec.data.smsReminder && rec.data.phone === to && rec.data.status !== 'cancelled',
  );
});

export function campaignHour(now: Date): number {
  return localHour(now, CAMPAIGN_TIME_ZONE);
}

/**
 * Whether a run may remind now: inside the send window (quiet-hours.ts sendWindow,
 * 9:00-20:00) in the campaign's zone; the run keeps its emails to the same hours.
 */
export const insideWindow = (now: Date) => insideSendWindow(now, CAMPAIGN_TIME_ZONE);

/** The campaign day after `now`'s campaign day (calendar arithmetic, so DST changes do not matter). */
export function campaignTomorrow(now: Date): string {
  const d = new Date(`${campaignToday(now)}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

type Field = 'reminderEmail' | 'reminderSms';

/** An RSVP's delivery field, for the shared claim helpers (src/lib/server/messaging/delivery-claims.ts). */
function delivery(eventId: number, id: string, field: Field): DeliveryRecord<StoredRsvp, Field> {
  return {
    store: kv('rsvps'),
    key: rsvpKey(eventId, id),
    parse: (raw) => {
      const p = StoredRsvpSchema.safeParse(raw);
      return p.success ? p.data : null;
    },
    field,
  };
}

const claim = (eventId: number, id: string, field: Field, at: string) =>
  claimDelivery(delivery(eventId, id, field), at);
const finish = (eventId: number, id: string, field: Field, d: Delivery) =>
  finishDelivery(delivery(eventId, id, field), d);
const release = (eventId: number, id: string, field: Field, at: string) =>
  releaseDelivery(delivery(eventId, id, field), at);
const failure = deliveryFailure;

export interface ReminderRun {
  events: number;
  emails: number;
  texts: number;
  textsSkipped: number;
  quiet: boolean;
}

export async function runReminders(now = new Date()): Promise<ReminderRun> {
  const run: ReminderRun = { events: 0, emails: 0, texts: 0, textsSkipped: 0, quiet: !insideWindow(now) };
  if (run.quiet) return run;
  const tomorrow = campaignTomorrow(now);
  const due = (await events.list()).filter((e) => takesRsvps(e) && e.eventDate === tomorrow);
  for (const event of due) {
    // The sequence's day-before ask goes instead (shift-sequence.ts): one day-before message, not two.
    if ((await getSequenceConfig(event.id, false)).dayBefore.on) continue;
    run.events += 1;
    const going = (await getRoster(event.id)).entries.filter((e) => e.status === 'going');
    for (const entry of going) {
      const at = now.toISOString();
      const forEmail = await claim(event.id, entry.id, 'reminderEmail', at);
      if (forEmail) {
        try {
          await sendEmail(reminderEmail(event, forEmail));
          await finish(event.id, entry.id, 'reminderEmail', { status: 'sent', at, error: null });
          run.emails += 1;
        } catch (err) {
          await finish(event.id, entry.id, 'reminderEmail', { status: 'failed', at, error: failure(err) });
        }
      }
      const rec = forEmail ?? (await getRsvp(event.id, entry.id));
      if (!rec?.smsReminder || !rec.phone || rec.reminderSms !== null) continue;
      const forSms = await claim(event.id, entry.id, 'reminderSms', at);
      if (!forSms?.phone) continue;
      try {
        // Every check (number, consent, STOP read fresh, quiet hours, caps) is the guard's.
        const sent = await sendGuardedText({
          to: forSms.phone,
          body: reminderText(event, forSms.lang ?? 'en'),
          lang: forSms.lang ?? 'en',
          consent: { purpose: 'rsvp_reminder', eventId: event.id, rsvpId: entry.id },
          now,
        });
        if (!sent.sent && (sent.refusal === 'quiet_hours' || sent.refusal === 'send_rate')) {
          // Still night where the recipient is, or this minute's send rate spent: a later run sends it.
          await release(event.id, entry.id, 'reminderSms', at);
          continue;
        }
        if (!sent.sent) {
          const error = TEXT_REFUSALS[sent.refusal];
          await finish(event.id, entry.id, 'reminderSms', { status: 'skipped', at, error });
          run.textsSkipped += 1;
          continue;
        }
        await finish(event.id, entry.id, 'reminderSms', { status: 'sent', at, error: null });
        await appendConsentEvent({
          ...emptyEvent(hashed(forSms.phone), 'rsvp_reminder_sent', at),
          phone: forSms.phone,
          messageId: sent.id,
          refKey: rsvpKey(event.id, entry.id),
        }).catch((e: unknown) => console.error('[reminders] could not log the text', e));
        run.texts += 1;
      } catch (err) {
        await finish(event.id, entry.id, 'reminderSms', { status: 'failed', at, error: failure(err) });
      }
    }
  }
  return run;
}
