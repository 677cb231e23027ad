import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { SHIFT_SEQUENCE_COPY } from '../../../content/shift-sequence.ts';
import { fill } from '../../fill.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import { SequenceRecordSchema, type SequenceRecord, type ShiftAnswer } from '../../schemas/shift-sequence.ts';
import { events } from '../content/events.ts';
import { derivedKey } from '../derived-keys.ts';
import { env } from '../env.ts';
import { HttpError } from '../errors.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { registerReplyAnswerer } from '../texting/sms-webhook.ts';
import { recordAttendance, recordConfirmed } from './shift-attendance.ts';
import { sequenceWords, slotOf, sourceFor } from './sequence-source.ts';

/*
 * A volunteer's answers in the shifts' sequence (docs/decisions/181-shifts.md, "The sequence"): confirm or cancel
 * the slot the day-before message asked about (a reply 1 / SÍ, 2 / NO, or a link), and "I was there" / "I could not
 * come" from the follow-up email. A link is keyed like the RSVP cancellation link (cancel-link.ts): an HMAC under
 * a key derived for this one purpose, of the event, the slot, the person and the answer; nothing is stored, and the
 * link carries no trace of the email (the server finds the person by checking the token against the slot's
 * roster, every candidate in constant time). An event without slots answers for its implicit slot the same way,
 * against its RSVP roster (sequence-source.ts).
 */

const PURPOSE = 'campaign-site:shift-answer-link:v1';
const tokenOf = (eventId: number, slotId: string, personId: string, answer: ShiftAnswer) =>
  createHmac('sha256', derivedKey(PURPOSE)).update(`${eventId}\n${slotId}\n${personId}\n${answer}`).digest();

/** The token of one person's answer on one slot (43 base64url characters). */
export const answerToken = (eventId: number, slotId: string, personId: string, answer: ShiftAnswer) =>
  tokenOf(eventId, slotId, personId, answer).toString('base64url');

/** The page a link opens (a button that posts: a scanner that fetches the link changes nothing). */
export function answerUrl(
  eventId: number,
  slotId: string,
  personId: string,
  answer: ShiftAnswer,
  lang: Lang = DEFAULT_LANG,
): string {
  const u = new URL('/api/shifts/answer', env().SITE_URL);
  u.searchParams.set('event', String(eventId));
  u.searchParams.set('slot', slotId);
  u.searchParams.set('answer', answer);
  u.searchParams.set('token', answerToken(eventId, slotId, personId, answer));
  if (lang !== DEFAULT_LANG) u.searchParams.set('lang', lang);
  return u.href;
}

/** The person on the slot's roster a token was made for, or null (every entry compared, in constant time). */
export async function personForAnswer(
  eventId: number,
  slotId: string,
  answer: ShiftAnswer,
  token: string,
): Promise<string | null> {
  const given = Buffer.from(token, 'base64url');
  if (given.length !== 32 || given.toString('base64url') !== token) return null;
  const { entries } = await sourceFor(slotId).roster(eventId, slotId);
  let found: string | null = null;
  for (const e of entries)
    if (timingSafeEqual(tokenOf(eventId, slotId, e.id, answer), given) && found === null) found = e.id;
  return found;
}

const store = () => kv('rsvps');
export const sequenceKey = (eventId: number, slotId: string, personId: string) =>
  key('shift-seq', eventId, slotId, personId);

export const parseSequence = (raw: unknown): SequenceRecord | null => {
  const p = SequenceRecordSchema.safeParse(raw);
  return p.success ? p.data : null;
};

/** Records the answer to the day-before question on the person's sequence record (created when missing). */
async function noteAnswer(
  eventId: number,
  slotId: string,
  personId: string,
  answer: 'confirmed' | 'cancelled',
  at: string,
) {
  await upsert<unknown>(store(), sequenceKey(eventId, slotId, personId), (raw) => {
    const cur =
      (raw ? parseSequence(raw) : null) ??
      SequenceRecordSchema.parse({ eventId, slotId, personId, updatedAt: at });
    if (cur.answer === answer || cur.answer === 'cancelled') return UNCHANGED;
    return { ...cur, answer, answeredAt: at, updatedAt: at };
  });
}

export type AnswerOutcome = 'confirmed' | 'cancelled' | 'attended' | 'absent' | 'not_on_shift';

/**
 * Applies one answer of a person on a slot. Confirm: noted (only while the person holds a place). Cancel: the
 * place is freed through the slot's roster (the waitlist moves up, cancelShift) and noted, so no later step of the
 * sequence goes to them. Attended / absent: recorded unless staff checked the person in (their word stands).
 */
export async function applyAnswer(
  event: CampaignEvent,
  slotId: string,
  personId: string,
  answer: ShiftAnswer,
  now = new Date(),
): Promise<AnswerOutcome> {
  const at = now.toISOString();
  const source = sourceFor(slotId);
  const entry = (await source.roster(event.id, slotId)).entries.find((e) => e.id === personId);
  if (answer === 'confirm') {
    if (entry?.status !== 'going') return 'not_on_shift';
    await noteAnswer(event.id, slotId, personId, 'confirmed', at);
    // Attendance per volunteer counts it (shift-attendance.ts): once per slot.
    await recordConfirmed(event.id, slotId, personId, now);
    return 'confirmed';
  }
  if (answer === 'cancel') {
    if (!entry) return 'not_on_shift';
    // Noted first: a run between the two writes sees the answer and sends nothing more.
    await noteAnswer(event.id, slotId, personId, 'cancelled', at);
    if (entry.status !== 'cancelled') await source.cancel(event, slotId, personId);
    return 'cancelled';
  }
  if (entry?.status !== 'going') return 'not_on_shift';
  if (!(await source.checkedIn(event.id, slotId, personId))) {
    await source.reported(event.id, slotId, personId, answer);
    await recordAttendance(event.id, slotId, personId, answer, 'volunteer', now);
  }
  return answer;
}

/** A link's answer: the token checked against the slot's roster; a bad link is a 404 with a clear message. */
export async function answerFromLink(
  input: { event: number; slot: string; answer: ShiftAnswer; token: string },
  now = new Date(),
): Promise<AnswerOutcome> {
  const event = await events.get(input.event);
  const personId = event ? await personForAnswer(input.event, input.slot, input.answer, input.token) : null;
  if (!event || !personId) throw new HttpError(404, SHIFT_SEQUENCE_COPY.en.badLink);
  return applyAnswer(event, input.slot, personId, input.answer, now);
}

// ---------------------------------------------------------------------------
// Replies to the day-before text: the slot it asked about, by the number it went to

const AskSchema = z.object({
  eventId: z.number().int().positive(),
  slotId: z.string(),
  personId: z.string(),
  /** Replies count until the slot starts (an ISO instant). */
  until: z.string(),
});
export const askKey = (phone: string) => key('shift-ask', hashed(phone));

/** Remembers which slot the day-before text to this number asked about (the latest asked wins). */
export async function rememberAsk(phone: string, ask: z.infer<typeof AskSchema>): Promise<void> {
  await store().put(askKey(phone), ask);
}

/**
 * A reply 1 / SÍ (confirm) or 2 / NO (cancel) from a number the day-before text asked: applied to that slot and
 * answered in the volunteer's language; null (no reply) when nothing is waiting for an answer from the number.
 */
export async function answerFromReply(
  from: string,
  kind: 'confirm' | 'cancel',
  now = new Date(),
): Promise<string | null> {
  const r = await store().get<unknown>(askKey(from));
  const p = r ? AskSchema.safeParse(r.value) : null;
  if (!p?.success || Date.parse(p.data.until) <= now.getTime()) return null;
  const ask = p.data;
  const [event, rec] = await Promise.all([
    events.get(ask.eventId),
    sourceFor(ask.slotId).person(ask.eventId, ask.slotId, ask.personId),
  ]);
  const slot = event && (await slotOf(event, ask.slotId));
  if (!event || !slot || !rec) return null;
  const outcome = await applyAnswer(event, slot.id, ask.personId, kind, now);
  if (outcome === 'not_on_shift') return null;
  const { w, shift } = sequenceWords(event, slot, rec.lang);
  return fill(outcome === 'confirmed' ? w.confirmedReply : w.cancelledReply, shift);
}

// The inbound webhook hands 1 / SÍ and 2 / NO replies to this folder (texting/ does not import events/).
registerReplyAnswerer(answerFromReply);
