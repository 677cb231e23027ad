import { campaignDayStart, campaignWallClock } from '../../campaign-time.ts';
import type { Delivery } from '../../schemas/rsvp.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import { takesRsvps } from '../../schemas/rsvp-rules.ts';
import {
  DEFAULT_SEQUENCE,
  SEQUENCE_OFF,
  SequenceConfigSchema,
  SequenceRecordSchema,
  type SequenceConfig,
  type SequenceMessage,
  type SequenceRecord,
  type SequenceStep,
} from '../../schemas/shift-sequence.ts';
import type { ShiftSlot } from '../../schemas/shifts.ts';
import { EmailSendError, EmailUnreachableError } from '../adapters/email.ts';
import { SmsSendError, SmsUnreachableError } from '../adapters/sms.ts';
import { events } from '../content/events.ts';
import { deliveryFailure } from '../messaging/delivery-claims.ts';
import { sendGuardedEmail } from '../messaging/email-guard.ts';
import { consentFor } from '../people/consent.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { sendGuardedText, TEXT_REFUSALS } from '../texting/text-guard.ts';
import { getPerson } from '../texting/text-list.ts';
// Registers the shift texts' consent reader with the guard before anything here sends.
import './shift-consent.ts';
import { parseSequence, rememberAsk, sequenceKey } from './shift-answers.ts';
import { eventsWithShiftsOn } from './shift-days.ts';
import { sequenceEmail, sequenceText } from './shift-sequence-messages.ts';
import { getShifts } from './shifts.ts';
import { implicitSlot, sourceFor, type SequencePerson } from './sequence-source.ts';

/**
 * The shifts' confirm-and-remind sequence (docs/decisions/181-shifts.md, "The sequence"), run every few minutes
 * by netlify/functions/shift-sequence.mts. For each slot, each step that is on and due (its window, in campaign
 * time, holds the run's clock) goes to every person going on the slot, once:
 *
 * - A run reads the day index (shift-days.ts) for four days, each listed event's slots and settings, and, for a
 *   slot with a step due, its roster and its progress (the people the step is done for): a bounded number of
 *   reads per run, and nothing per person once a step is done for them.
 * - Each message is claimed on the person's sequence record (`shift-seq/<event>/<slot>/<person>`) under
 *   compare-and-set before it is sent: of two overlapping runs only one sends. A person's due messages are claimed
 *   in one write and their outcomes recorded in one (an email's before anything else is sent): `deliverPerson`.
 * - A text goes through the text guard (consent read fresh: the volunteer still holds the slot; STOP; quiet hours
 *   in the recipient's zone; the shared send rate; caps) with a delivery key, so a claim left by a run that was
 *   killed mid-send is taken over later with the provider asked first (exactly once). A text held back by quiet
 *   hours or the send rate is given back and sent by a later run, until the step's window closes.
 * - An email goes through the email guard (suppressions, the paid-for line, unsubscribe).
 * - Nobody who cancelled (the roster, and the answer on the record, read at the claim), was removed, or texted
 *   STOP (their number's STOP after they asked for texts) gets a later step.
 * - An event without slots is one implicit slot (sequence-source.ts): found in the events' index (one read per
 *   run), its people and answers from its RSVPs; its steps are off until staff turn them on.
 */

const store = () => kv('rsvps');

/** A claim older than this was left by a run that stopped (a run sends for at most RUN_BUDGET_MS). */
export const STALE_CLAIM_MS = 5 * 60_000;
/** A run stops starting new messages after this long; the next run goes on (a scheduled function has 30 s). */
const RUN_BUDGET_MS = 20_000;
/** People served at once in a run (each person's messages are claimed on their own record: order does not matter). */
const PARALLEL = 8;

export const sequenceConfigKey = (eventId: number) => key('shift-sequence', eventId);
const progressKey = (eventId: number, slotId: string) => key('shift-seq-progress', eventId, slotId);

/** An event's sequence settings as staff saved them, or null when they never did. */
export async function storedSequenceConfig(eventId: number): Promise<SequenceConfig | null> {
  const r = await store().get<unknown>(sequenceConfigKey(eventId));
  const p = r ? SequenceConfigSchema.safeParse(r.value) : null;
  return p?.success ? p.data : null;
}

/**
 * An event's sequence settings: staff's, else the defaults: every step on for an event with slots, every step
 * off for one without (its RSVP's own day-before reminder goes instead: "The event without slots").
 */
export async function getSequenceConfig(eventId: number, hasSlots = true): Promise<SequenceConfig> {
  return (await storedSequenceConfig(eventId)) ?? (hasSlots ? DEFAULT_SEQUENCE : SEQUENCE_OFF);
}

export async function setSequenceConfig(eventId: number, config: SequenceConfig): Promise<SequenceConfig> {
  await store().put(sequenceConfigKey(eventId), config);
  return config;
}

// ---------------------------------------------------------------------------
// When each step is due: campaign wall-clock strings ("YYYY-MM-DDTHH:MM", campaign-time.ts campaignWallClock)

/** `date` at `hhmm` moved by `minutes`, as a wall-clock string (calendar arithmetic: DST changes move nothing). */
export function wallPlus(date: string, hhmm: string, minutes: number): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const t = new Date(Date.parse(`${date}T00:00:00Z`) + (h * 60 + m + minutes) * 60_000);
  return t.toISOString().slice(0, 16);
}

/** The window in which a step may go: from its time until it is no use any more. */
export function stepWindow(
  slot: Pick<ShiftSlot, 'date' | 'start' | 'end'>,
  step: SequenceStep,
  c: SequenceConfig,
): { from: string; until: string } {
  const start = wallPlus(slot.date, slot.start, 0);
  if (step === 'dayBefore')
    return { from: wallPlus(slot.date, c.dayBefore.at, -24 * 60), until: wallPlus(slot.date, '00:00', 0) };
  if (step === 'morning') return { from: wallPlus(slot.date, c.morning.at, 0), until: start };
  if (step === 'soon') return { from: wallPlus(slot.date, slot.start, -c.soon.minutesBefore), until: start };
  const from = wallPlus(slot.date, slot.end, c.followUp.minutesAfter);
  return { from, until: wallPlus(from.slice(0, 10), from.slice(11), 24 * 60) };
}

interface MessageSpec {
  msg: SequenceMessage;
  step: SequenceStep;
  channel: 'text' | 'email';
}
export const MESSAGES: readonly MessageSpec[] = [
  { msg: 'dayBeforeText', step: 'dayBefore', channel: 'text' },
  { msg: 'dayBeforeEmail', step: 'dayBefore', channel: 'email' },
  { msg: 'morningEmail', step: 'morning', channel: 'email' },
  { msg: 'soonText', step: 'soon', channel: 'text' },
  { msg: 'followUpEmail', step: 'followUp', channel: 'email' },
];

/** The messages of a slot due at the wall clock `wall` under the event's settings. */
export function dueMessages(
  slot: Pick<ShiftSlot, 'date' | 'start' | 'end'>,
  c: SequenceConfig,
  wall: string,
) {
  return MESSAGES.filter((m) => {
    if (!c[m.step].on) return false;
    const w = stepWindow(slot, m.step, c);
    return wall >= w.from && wall < w.until;
  });
}

// ---------------------------------------------------------------------------
// One person's due messages

/** What became of one claimed message: a final delivery, or given back (`null`) for a later run. */
type Result = Delivery | null;

interface Claim {
  /** The record as read at the claim. */
  record: SequenceRecord;
  /** The messages this run now holds; a taken-over text's claim time (the provider is asked since then). */
  claimed: { spec: MessageSpec; resumeSince?: Date }[];
  /** The messages that ended before (sent, skipped or failed). */
  done: SequenceMessage[];
}

/**
 * Claims every due message of a person on their sequence record in one compare-and-set (free ones: null ->
 * sending; one a stopped run left sending for longer than STALE_CLAIM_MS is taken over, and a text then asks the
 * provider first). The record as claimed with the claims and when each taken-over claim was made, the messages
 * already done (sent, skipped or failed), and those another run holds ("later"); null when the record is absent
 * and could not be made.
 */
async function claimAll(ctx: Ctx, personId: string, specs: readonly MessageSpec[]): Promise<Claim | null> {
  const { event, slot, now, at } = ctx;
  let out: Claim | null = null;
  await upsert<unknown>(store(), sequenceKey(event.id, slot.id, personId), (raw) => {
    out = null;
    const cur = raw
      ? parseSequence(raw)
      : SequenceRecordSchema.parse({ eventId: event.id, slotId: slot.id, personId, updatedAt: at });
    if (!cur) return UNCHANGED;
    const claim: Claim = { record: cur, claimed: [], done: [] };
    const next: SequenceRecord = { ...cur, updatedAt: at };
    for (const spec of specs) {
      const d = cur[spec.msg];
      const stale = d?.status === 'sending' && now.getTime() - Date.parse(d.at) > STALE_CLAIM_MS;
      if (d === null || stale) {
        claim.claimed.push(stale ? { spec, resumeSince: new Date(d.at) } : { spec });
        next[spec.msg] = { status: 'sending', at, error: null };
      } else if (d.status !== 'sending') claim.done.push(spec.msg);
      // Otherwise another run holds it: a later run looks again.
    }
    out = claim;
    return claim.claimed.length ? next : UNCHANGED;
  });
  return out;
}

/**
 * Records how claimed messages ended, in one compare-and-set: a final delivery is written; a claim given back
 * (null) is cleared only while it is still this run's (made `at`). A failure to record is logged: the sends stand,
 * and a claim left "sending" is taken over once stale (a text asks the provider first).
 */
async function settle(ctx: Ctx, personId: string, results: Map<SequenceMessage, Result>): Promise<void> {
  if (!results.size) return;
  const { event, slot, at } = ctx;
  await upsert<unknown>(store(), sequenceKey(event.id, slot.id, personId), (raw) => {
    const cur = raw ? parseSequence(raw) : null;
    if (!cur) return UNCHANGED;
    const next: SequenceRecord = { ...cur };
    for (const [msg, d] of results) {
      if (d) next[msg] = d;
      else if (cur[msg]?.status === 'sending' && cur[msg].at === at) next[msg] = null;
    }
    return { ...next, updatedAt: at };
  }).catch((e: unknown) => console.error('[shift-sequence] could not record deliveries', e));
  results.clear();
}

/** Whether the person's number said STOP (the text guard's two reads: the text list, and the person's consent). */
async function textStopped(phone: string): Promise<boolean> {
  if ((await getPerson(hashed(phone)))?.smsStatus === 'opted_out') return true;
  return (await consentFor('text', phone)).revoked;
}

/** The instant a slot starts (its day's campaign midnight plus its hours). */
const slotStart = (slot: Pick<ShiftSlot, 'date' | 'start'>) => {
  const [h, m] = slot.start.split(':').map(Number) as [number, number];
  return new Date(Date.parse(campaignDayStart(slot.date)) + (h * 60 + m) * 60_000).toISOString();
};

export interface SequenceRun {
  slots: number;
  emails: number;
  texts: number;
  skipped: number;
  later: number;
  /** The run stopped starting messages (its time budget): the next run goes on. */
  cut: boolean;
}

interface Ctx {
  now: Date;
  at: string;
  run: SequenceRun;
  event: CampaignEvent;
  slot: ShiftSlot;
  /**
   * The send rate of the run's minute is spent (the guard said so): the run's clock does not move, so no later
   * text of this run could go; they wait for the next run unclaimed, instead of each costing a claim and the
   * guard's reads to hear the same refusal.
   */
  paced: { spent: boolean };
}

/**
 * A person's due messages (docs/decisions/181-shifts.md, "Store calls per message"): one claim for all of them,
 * then each is sent, texts before emails, then one write of how they ended. An email's outcome is written before
 * anything else is sent (a claim left "sending" is an email sent again once stale; a text's asks the provider), and
 * on an error the outcomes so far are written and the claims not yet tried given back before the error goes on.
 * Answers the messages done for the person (the progress list's).
 */
async function deliverPerson(ctx: Ctx, person: SequencePerson, todo: readonly MessageSpec[]) {
  const { event, slot, now, at, run } = ctx;
  const wantsTexts = Boolean(person.smsReminder && person.phone);
  const done: SequenceMessage[] = todo.filter((s) => s.channel === 'text' && !wantsTexts).map((s) => s.msg);
  const waiting = wantsTexts && ctx.paced.spent ? todo.filter((s) => s.channel === 'text').length : 0;
  run.later += waiting;
  const specs = todo
    .filter((s) => s.channel === 'email' || (wantsTexts && !waiting))
    .sort((a, b) => (a.channel === b.channel ? 0 : a.channel === 'text' ? -1 : 1));
  if (!specs.length) return done;
  const claim = await claimAll(ctx, person.id, specs);
  if (!claim) return done;
  done.push(...claim.done);
  const results = new Map<SequenceMessage, Result>();
  const end = (spec: MessageSpec, d: Delivery) => {
    results.set(spec.msg, d);
    done.push(spec.msg);
  };
  const skip = (spec: MessageSpec, error: string) => {
    end(spec, { status: 'skipped', at, error });
    run.skipped += 1;
  };
  // Whether the number said STOP, once known in this pass (a text the guard just let through: it had not).
  let stopped: boolean | null = null;
  let tried = 0;
  try {
    for (const { spec, resumeSince } of claim.claimed) {
      tried += 1;
      // Read at the claim: an answer "cancel" (a reply or a link) stops every later step.
      if (claim.record.answer === 'cancelled') {
        skip(spec, 'Cancelled');
        continue;
      }
      try {
        if (spec.channel === 'email') {
          if (wantsTexts && (stopped ??= await textStopped(person.phone!))) {
            skip(spec, TEXT_REFUSALS.opted_out);
            continue;
          }
          const sent = await sendGuardedEmail(sequenceEmail(event, slot, person, spec.step));
          if (!sent.sent) skip(spec, sent.reason ?? sent.refusal);
          else {
            end(spec, { status: 'sent', at, error: null });
            run.emails += 1;
          }
          if (tried < claim.claimed.length) await settle(ctx, person.id, results);
          continue;
        }
        const sent = await sendGuardedText({
          to: person.phone!,
          body: sequenceText(event, slot, person, spec.step),
          lang: person.lang,
          consent: { purpose: 'shift_reminder', eventId: event.id, slotId: slot.id, personId: person.id },
          now,
          delivery: {
            key: `shift:${event.id}:${slot.id}:${person.id}:${spec.msg}`,
            ...(resumeSince ? { resumeSince } : {}),
          },
        });
        if (!sent.sent && (sent.refusal === 'quiet_hours' || sent.refusal === 'send_rate')) {
          // Night where the recipient is, or this minute's rate spent: a later run sends it, while the step is due.
          if (sent.refusal === 'send_rate') ctx.paced.spent = true;
          results.set(spec.msg, null);
          run.later += 1;
          continue;
        }
        if (!sent.sent) {
          if (sent.refusal === 'opted_out') stopped = true;
          skip(spec, TEXT_REFUSALS[sent.refusal]);
          continue;
        }
        stopped = false;
        end(spec, { status: 'sent', at, error: null });
        if (spec.step === 'dayBefore')
          await rememberAsk(person.phone!, {
            eventId: event.id,
            slotId: slot.id,
            personId: person.id,
            until: slotStart(slot),
          });
        run.texts += 1;
      } catch (err) {
        // The provider refused it: recorded, not retried. Anything else (the provider unreachable, the run
        // killed): the claim stays, and a later run takes it over once stale (a text asks the provider first).
        const unreachable = err instanceof SmsUnreachableError || err instanceof EmailUnreachableError;
        if (!unreachable && (err instanceof SmsSendError || err instanceof EmailSendError)) {
          end(spec, { status: 'failed', at, error: deliveryFailure(err) });
          continue;
        }
        throw err;
      }
    }
  } catch (err) {
    // The claims not yet tried go back (the one that failed stays claimed), with what ended so far.
    for (const { spec } of claim.claimed.slice(tried)) results.set(spec.msg, null);
    await settle(ctx, person.id, results);
    throw err;
  }
  await settle(ctx, person.id, results);
  return done;
}

// ---------------------------------------------------------------------------
// The run

const dayPlus = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function progressOf(
  eventId: number,
  slotId: string,
): Promise<Partial<Record<SequenceMessage, string[]>>> {
  const r = await store().get<{ done?: Partial<Record<SequenceMessage, string[]>> }>(
    progressKey(eventId, slotId),
  );
  return r?.value.done ?? {};
}

async function markDone(eventId: number, slotId: string, done: Partial<Record<SequenceMessage, string[]>>) {
  if (!Object.values(done).some((ids) => ids.length)) return;
  await upsert<{ done: Partial<Record<SequenceMessage, string[]>> }>(
    store(),
    progressKey(eventId, slotId),
    (cur) => {
      const next = { ...(cur?.done ?? {}) };
      for (const [msg, ids] of Object.entries(done) as [SequenceMessage, string[]][])
        next[msg] = [...new Set([...(next[msg] ?? []), ...ids])];
      return { done: next };
    },
  );
}

/** The slots of an event the run looks at, with the event's settings: real ones, or the implicit one. */
async function slotsOf(event: CampaignEvent, days: readonly string[]) {
  const [doc, stored] = await Promise.all([getShifts(event.id), storedSequenceConfig(event.id)]);
  if (doc.slots.length)
    return { slots: doc.slots.filter((s) => days.includes(s.date)), config: stored ?? DEFAULT_SEQUENCE };
  // An event without slots: its implicit slot, once staff turned a step on (else its RSVP reminder goes).
  if (!stored || !takesRsvps(event) || !days.includes(event.eventDate))
    return { slots: [], config: SEQUENCE_OFF };
  return { slots: [implicitSlot(event)], config: stored };
}

/** One run at `now`: every due message of every slot, once. */
export async function runShiftSequence(now = new Date()): Promise<SequenceRun> {
  const started = performance.now();
  const run: SequenceRun = { slots: 0, emails: 0, texts: 0, skipped: 0, later: 0, cut: false };
  const wall = campaignWallClock(now);
  const today = wall.slice(0, 10);
  const days = [-2, -1, 0, 1].map((n) => dayPlus(today, n));
  // The events with a slot on one of the days (the day index), and the events on one of them (the events' index).
  const [indexed, all] = await Promise.all([
    Promise.all(days.map(eventsWithShiftsOn)).then((ids) => new Set(ids.flat())),
    events.list(),
  ]);
  const listed = all
    .filter((e) => indexed.has(e.id) || days.includes(e.eventDate))
    .sort((a, b) => a.id - b.id);
  const at = now.toISOString();
  const paced = { spent: false };
  for (const event of listed) {
    const { slots, config } = await slotsOf(event, days);
    for (const slot of slots) {
      const due = dueMessages(slot, config, wall);
      if (!due.length) continue;
      run.slots += 1;
      const source = sourceFor(slot.id);
      const [roster, progress] = await Promise.all([
        source.roster(event.id, slot.id),
        progressOf(event.id, slot.id),
      ]);
      const done: Partial<Record<SequenceMessage, string[]>> = {};
      const ctx: Ctx = { now, at, run, event, slot, paced };
      const finished = new Map(due.map((m) => [m.msg, new Set(progress[m.msg] ?? [])]));
      let failure: { err: unknown } | null = null;
      try {
        const going = roster.entries.filter((e) => e.status === 'going');
        // A few people at a time (each message is its own claim); the first error stops the run, as a kill would.
        await mapLimit(going, PARALLEL, async (entry) => {
          if (failure || run.cut) return;
          const todo = due.filter((m) => !finished.get(m.msg)!.has(entry.id));
          if (!todo.length) return;
          if (performance.now() - started > RUN_BUDGET_MS) {
            run.cut = true;
            return;
          }
          try {
            const person = await source.person(event.id, slot.id, entry.id);
            const finished = person ? await deliverPerson(ctx, person, todo) : todo.map((m) => m.msg);
            for (const msg of finished) (done[msg] ??= []).push(entry.id);
          } catch (err) {
            failure ??= { err };
          }
        });
        if (failure) throw (failure as { err: unknown }).err;
      } finally {
        // What this run finished is kept even when it stops on an error (a later run skips those people).
        await markDone(event.id, slot.id, done).catch((e: unknown) =>
          console.error('[shift-sequence] could not record progress', e),
        );
      }
      if (run.cut) return run;
    }
  }
  return run;
}
