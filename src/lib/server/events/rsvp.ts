import { countActivity } from '../activity/counts.ts';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { IDENTITY } from '../../../content/identity.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import { eventPagePath, takesRsvps } from '../../schemas/rsvp-rules.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { localizedPath } from '../../lang-paths.ts';
import {
  CheckInsSchema,
  RSVP_MESSAGES,
  RosterSchema,
  StoredRsvpSchema,
  rsvpSmsConsentText,
  rsvpSmsConsentVersion,
  type Delivery,
  type Roster,
  type RsvpAvailability,
  type RsvpCancelSchema,
  type RsvpInputSchema,
  type RsvpResult,
  type CheckIns,
  type RsvpStatus,
  type StoredRsvp,
} from '../../schemas/rsvp.ts';
import { sendEmail, type EmailMessage } from '../adapters/email.ts';
import { campaignToday, events } from '../content/events.ts';
import { appendConsentEvent, emptyEvent, type RequestMeta } from '../texting/text-signups.ts';
import { HttpError } from '../errors.ts';
import { submit, type Combiner, type Op } from '../storage/combiner.ts';
import { UNCHANGED, update, upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { StoreUnavailableError, type KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import { linkPerson } from '../people/link.ts';
import { recordSignups } from './shift-attendance.ts';
import { requireCancelLinks, rsvpIdForToken } from './cancel-link.ts';
import { confirmationEmail, promotionEmail, statusEmail } from './rsvp-email.ts';
import { cancelShift, getShifts, shiftForLink, signUpForShifts } from './shifts.ts';
import { rsvpKey } from './rsvp-keys.ts';
import {
  answer,
  answerAsNew,
  counts,
  foldOps,
  waitlistPosition,
  type RosterOp,
  type RosterOpResult,
} from './roster.ts';

/**
 * RSVPs (store `rsvps`): one record per person per event
 * (`rsvp/<event id>/<sha256 of email>`, personal details, created onlyIfNew)
 * and one roster per event (`roster/<event id>`: who holds a seat and who
 * waits, in arrival order). Every seat decision is made in one roster write,
 * so concurrent RSVPs can never overbook; the person is stored before the
 * roster is touched, and emailed after. RSVPs and cancellations reach the
 * roster as ops folded by whoever holds its lease (storage/combiner.ts), so a rush of
 * hundreds is served in arrival order with no one refused. Design:
 * docs/decisions/150-rsvp.md; the cancellation links:
 * docs/decisions/150-rsvp.md; a repeat RSVP:
 * docs/decisions/150-rsvp.md; rushes:
 * docs/decisions/153-storage.md.
 */

export type RsvpData = z.output<typeof RsvpInputSchema>;
export type RsvpCancel = z.output<typeof RsvpCancelSchema>;

const store = (): KV => kv('rsvps');
export { rsvpKey };
export const rsvpPrefix = (eventId: number) => `${key('rsvp', eventId)}/`;
export const rosterKey = (eventId: number) => key('roster', eventId);

/**
 * A repeat RSVP mails its status at most once per RSVP in this window, so the
 * form cannot be used to flood someone's mailbox (docs/decisions/150-rsvp.md).
 */
export const RSVP_STATUS_EMAIL_WINDOW_MS = 24 * 60 * 60_000;
/**
 * No status email this soon after the confirmation or promotion email: a
 * double click, a retry or a second tab is answered by the email just sent.
 */
export const RSVP_STATUS_EMAIL_QUIET_MS = 10 * 60_000;

export const checkInsKey = (eventId: number) => key('checkin', eventId);

/** The roster's ops and lease (storage/combiner.ts): a change waits as its own key until a fold takes it in. */
function rosterCombiner(
  eventId: number,
  event: CampaignEvent | null,
): Combiner<unknown, RosterOp, RosterOpResult> {
  return {
    store,
    docKey: rosterKey(eventId),
    leaseKey: key('lease', 'roster', eventId),
    opPrefix: `${key('op', 'roster', eventId)}/`,
    settleMs: SETTLE_MS,
    fold: (raw, ops: Op<RosterOp>[]) => {
      const roster: Roster = raw ? RosterSchema.parse(raw) : { eventId, entries: [] };
      const entries = roster.entries.map((e) => ({ ...e }));
      const { results, promoted, changed } = foldOps(
        entries,
        ops.map((o) => ({ key: o.key, op: o.value })),
        event?.maxAttendees ?? null,
      );
      // Whoever folded emails the people it moved up (a deleted event's are not emailed).
      const after = event && promoted.length ? () => notifyPromoted(event, promoted) : undefined;
      return { doc: changed ? { ...roster, entries } : UNCHANGED, results, ...(after ? { after } : {}) };
    },
  };
}

/**
 * First come, first served: a fold takes an op only once it is this old, so one written a moment
 * earlier is never overtaken (docs/decisions/153-storage.md).
 */
const SETTLE_MS = 150;

/** An op's name: served in the order ops were recorded (the time in ms, zero-padded), then by id. */
const opName = (at: string, id: string, kind: RosterOp['kind']) =>
  `${String(Date.parse(at)).padStart(13, '0')}+${id}+${kind}`;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The event, if it takes RSVPs here and has not passed (strongly consistent read of its record). */
export async function rsvpEvent(eventId: number, now = new Date()): Promise<CampaignEvent> {
  const event = await events.get(eventId);
  if (!event || !takesRsvps(event) || event.eventDate < campaignToday(now))
    throw new HttpError(404, RSVP_MESSAGES.notTaking);
  return event;
}

export async function getRoster(eventId: number): Promise<Roster> {
  const r = await store().get<unknown>(rosterKey(eventId));
  return r ? RosterSchema.parse(r.value) : { eventId, entries: [] };
}

export async function getRsvp(eventId: number, id: string): Promise<StoredRsvp | null> {
  const r = await store().get<unknown>(rsvpKey(eventId, id));
  const p = r ? StoredRsvpSchema.safeParse(r.value) : null;
  return p?.success ? p.data : null;
}

export async function availability(eventId: number, now = new Date()): Promise<RsvpAvailability> {
  const event = await rsvpEvent(eventId, now);
  const { goingSeats, waitlistedPeople } = counts((await getRoster(eventId)).entries);
  const capacity = event.maxAttendees;
  return {
    open: true,
    capacity,
    seatsTaken: goingSeats,
    seatsLeft: capacity === null ? null : Math.max(0, capacity - goingSeats),
    waitlisted: waitlistedPeople,
  };
}

const delivery = (status: Delivery['status'], error: string | null = null): Delivery => ({
  status,
  at: new Date().toISOString(),
  error,
});

async function setRecord(eventId: number, id: string, patch: (cur: StoredRsvp) => Partial<StoredRsvp>) {
  return update<StoredRsvp>(store(), rsvpKey(eventId, id), (cur) => {
    const parsed = StoredRsvpSchema.safeParse(cur);
    if (!parsed.success) throw new StoreUnavailableError(new Error(`Invalid RSVP record ${eventId}/${id}`));
    return { ...parsed.data, ...patch(parsed.data), updatedAt: new Date().toISOString() };
  });
}

/** Sends an email and records the outcome on the RSVP; a failure never undoes the RSVP. */
async function emailAndMark(
  eventId: number,
  id: string,
  field: 'confirmation' | 'promotion' | 'reminderEmail' | null,
  message: EmailMessage,
): Promise<Delivery> {
  let result: Delivery;
  try {
    await sendEmail(message);
    result = delivery('sent');
  } catch (err) {
    const error = err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 300) : 'Email failed';
    console.error(`[rsvp] ${field} email failed: ${error}`);
    result = delivery('failed', error);
  }
  if (field)
    await setRecord(eventId, id, () => ({ [field]: result })).catch((e: unknown) =>
      console.error(`[rsvp] could not record the ${field} status`, e),
    );
  return result;
}

/** Emails the people a roster change moved from the waitlist to going, with their cancellation link. */
async function notifyPromoted(event: CampaignEvent, ids: string[]): Promise<void> {
  for (const id of ids) {
    const rec = await setRecord(event.id, id, () => ({
      status: 'going',
      promotion: delivery('pending'),
    })).catch((e: unknown) => {
      console.error('[rsvp] could not record a promotion', e);
      return null;
    });
    if (rec) await emailAndMark(event.id, id, 'promotion', promotionEmail(event, rec));
  }
}

/** The SMS reminder consent, in the same append-only log as the text sign-up's. */
async function logReminderConsent(rec: StoredRsvp, meta: RequestMeta, at: string, lang: Lang): Promise<void> {
  if (!rec.smsReminder || !rec.phone) return;
  const text = rsvpSmsConsentText(IDENTITY.committeeName, lang);
  await appendConsentEvent({
    ...emptyEvent(hashed(rec.phone), 'rsvp_reminder_opt_in', at),
    phone: rec.phone,
    email: rec.email,
    firstName: rec.name.slice(0, 80),
    consentText: text,
    consentVersion: rsvpSmsConsentVersion(IDENTITY.committeeName, lang),
    consentTextSha256: sha256(text),
    lang,
    sourcePage: localizedPath(eventPagePath(rec.eventId), lang),
    ip: meta.ip,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, 512) : null,
    refKey: rsvpKey(rec.eventId, rec.id),
  });
}

/**
 * A repeat RSVP from an email that already holds a place: nothing is written
 * to the RSVP or the roster; the person's real status goes to their own
 * address, at most once per RSVP_STATUS_EMAIL_WINDOW_MS and not within
 * RSVP_STATUS_EMAIL_QUIET_MS of their confirmation (claimed under
 * compare-and-set, so a burst of repeats sends at most one).
 */
async function mailStatus(
  event: CampaignEvent,
  id: string,
  real: { status: RsvpStatus; position: number | null },
  now: Date,
) {
  if (real.status === 'cancelled') return;
  let claimed = false;
  const rec = await update<StoredRsvp>(store(), rsvpKey(event.id, id), (cur) => {
    const parsed = StoredRsvpSchema.safeParse(cur);
    claimed = false;
    if (!parsed.success) throw new StoreUnavailableError(new Error(`Invalid RSVP record ${event.id}/${id}`));
    const since = (iso: string | null | undefined) => (iso ? now.getTime() - Date.parse(iso) : Infinity);
    const { statusEmailAt, confirmation, promotion } = parsed.data;
    if (since(statusEmailAt) < RSVP_STATUS_EMAIL_WINDOW_MS) return parsed.data;
    if (Math.min(since(confirmation?.at), since(promotion?.at)) < RSVP_STATUS_EMAIL_QUIET_MS)
      return parsed.data;
    claimed = true;
    return { ...parsed.data, statusEmailAt: now.toISOString() };
  }).catch((e: unknown) => {
    console.error('[rsvp] could not claim the status email', e);
    return null;
  });
  if (!rec || !claimed) return;
  await emailAndMark(event.id, id, null, statusEmail(event, rec, real.status, real.position));
}

/**
 * One RSVP: store the person, record the change for the roster and wait for it
 * to be folded in (storage/combiner.ts; arrival order, nobody refused), then email.
 * A repeat from the same email while the first is still active writes
 * nothing, is answered exactly as a new RSVP would be (201, the same body and
 * outcome page) and mails the real status to that email instead; after a
 * cancellation it is a new RSVP at the end of the line.
 */
export async function rsvp(
  eventId: number,
  input: RsvpData,
  meta: RequestMeta,
  now = new Date(),
): Promise<RsvpResult> {
  requireCancelLinks();
  const event = await rsvpEvent(eventId, now);
  // An event with shifts takes a sign-up for its slots (docs/decisions/181-shifts.md); without, it is one slot.
  const shifts = await getShifts(eventId);
  if (shifts.slots.length) {
    const answer = await signUpForShifts(event, shifts, input, meta, now);
    // Attendance per volunteer counts the sign-up (shift-attendance.ts): each slot once, a replay adds nothing.
    const asked = new Set(input.slots);
    await recordSignups(
      eventId,
      shifts.slots.filter((s) => asked.has(s.id)),
      hashed(input.email),
      now,
    );
    return answer;
  }
  const at = now.toISOString();
  const id = hashed(input.email);
  const party = { id, seats: 1 + input.guests, at };
  // A repeat is known from the person's record (the roster, larger, is read only then).
  const known = await getRsvp(eventId, id);
  if (known?.status === 'going' || known?.status === 'waitlisted') {
    const { entries } = await getRoster(eventId);
    const active = entries.find((e) => e.id === id && e.status !== 'cancelled');
    if (active) {
      await mailStatus(event, id, { status: active.status, position: waitlistPosition(entries, id) }, now);
      return answerAsNew(entries, party, event.maxAttendees);
    }
  }

  // 1. The person, stored first.
  const lang = input.lang ?? DEFAULT_LANG;
  const details = {
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    guests: input.guests,
    smsReminder: input.smsReminder,
    lang,
  };
  const fresh: StoredRsvp = StoredRsvpSchema.parse({
    id,
    eventId,
    ...details,
    status: 'pending',
    statusEmailAt: null,
    createdAt: at,
    updatedAt: at,
    cancelledAt: null,
    checkedInAt: null,
    checkedInBy: null,
    confirmation: null,
    promotion: null,
    reminderEmail: null,
    reminderSms: null,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
  });
  let record = fresh;
  if (await store().create(rsvpKey(eventId, id), fresh))
    await countActivity({ kind: 'signup.rsvp', id: `${eventId}-${id}`, at, source: 'page:events' });
  else {
    const updated = await setRecord(eventId, id, () => ({
      ...details,
      status: 'pending',
      cancelledAt: null,
    }));
    if (!updated) throw new HttpError(409, 'Please try again.');
    record = updated;
  }
  await logReminderConsent(record, meta, at, lang);
  await linkPerson({
    source: 'rsvp',
    store: 'rsvps',
    key: rsvpKey(eventId, id),
    ...details,
    detail: { eventId },
    at: now,
  });

  // 2. The seat decision: one roster write for everyone waiting, in the order they joined the queue (now).
  const queued = new Date().toISOString();
  const op: RosterOp = {
    kind: 'rsvp',
    ...party,
    at: queued,
    person: {
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      smsReminder: input.smsReminder,
    },
  };
  const { result, twin } = await submit(rosterCombiner(eventId, event), opName(queued, id, 'rsvp'), op);
  if (twin || result?.kind !== 'placed') {
    // Already holding a place (a concurrent twin got it first): answered like the repeat above.
    const { entries } = await getRoster(eventId);
    const cur = entries.find((e) => e.id === id && e.status !== 'cancelled');
    if (cur) {
      await setRecord(eventId, id, () => ({ status: cur.status })).catch(() => null);
      if (!twin)
        await mailStatus(event, id, { status: cur.status, position: waitlistPosition(entries, id) }, now);
    }
    return result?.kind === 'repeat' ? result.answer : answerAsNew(entries, party, event.maxAttendees);
  }

  // 3. Tell them (the record keeps the outcome for staff).
  const placedRecord = (await setRecord(eventId, id, () => ({ status: result.status }))) ?? record;
  await emailAndMark(
    eventId,
    id,
    'confirmation',
    confirmationEmail(event, placedRecord, result.status, result.position),
  );
  return answer(result.status, result.position);
}

/**
 * The RSVP a cancellation link is for: the token is checked against every
 * place in the event's roster (docs/decisions/150-rsvp.md).
 * A wrong or unknown link is a 404 with one message (it says nothing about
 * who RSVP'd).
 */
export async function rsvpForLink(link: Pick<RsvpCancel, 'event' | 'token'>): Promise<{
  rsvp: StoredRsvp | null;
  status: 'going' | 'waitlisted' | 'cancelled';
  event: CampaignEvent | null;
  shift?: { slot: string; id: string };
}> {
  const roster = await getRoster(link.event);
  const id = rsvpIdForToken(
    link.event,
    link.token,
    roster.entries.map((e) => e.id),
  );
  const rec = id ? await getRsvp(link.event, id) : null;
  const entry = roster.entries.find((e) => e.id === id);
  if (!id) {
    // A shift's link (docs/decisions/181-shifts.md): the token is over the slot and the person.
    const shift = await shiftForLink(link.event, link.token);
    if (shift) return { rsvp: null, status: shift.status, event: await events.get(link.event), shift };
  }
  if (!rec || !entry) throw new HttpError(404, RSVP_MESSAGES.badLink);
  return { rsvp: rec, status: entry.status, event: await events.get(link.event) };
}

/**
 * Cancels from the emailed link: frees the seat and promotes from the
 * waitlist in the same roster write (folded like an RSVP); the promoted are
 * emailed by whoever folded it.
 */
export async function cancelRsvp(
  input: RsvpCancel,
  now = new Date(),
): Promise<{ alreadyCancelled: boolean }> {
  const { rsvp: rec, event, shift } = await rsvpForLink(input);
  if (shift) {
    if (!event) throw new HttpError(404, RSVP_MESSAGES.badLink);
    return cancelShift(event, shift);
  }
  if (!rec) throw new HttpError(404, RSVP_MESSAGES.badLink);
  return cancelPlace(input.event, event, rec, now);
}

/**
 * Frees one person's place (the link's cancellation, and the sequence's "cancel" answer: sequence-source.ts):
 * the seat goes and the waitlist moves up in the same roster fold; the promoted are emailed by whoever folded it.
 */
export async function cancelPlace(
  eventId: number,
  event: CampaignEvent | null,
  rec: StoredRsvp,
  now = new Date(),
): Promise<{ alreadyCancelled: boolean }> {
  const at = now.toISOString();
  const queued = new Date().toISOString();
  const op: RosterOp = { kind: 'cancel', id: rec.id, at: queued };
  const { result } = await submit(rosterCombiner(eventId, event), opName(queued, rec.id, 'cancel'), op);
  const already = result?.kind !== 'cancelled' || result.already;
  if (rec.status !== 'cancelled')
    await setRecord(eventId, rec.id, () => ({ status: 'cancelled', cancelledAt: at }));
  return { alreadyCancelled: already };
}

/** Who is checked in at an event (one read; docs/decisions/155-inbox-and-staff-lists.md). */
export async function getCheckIns(eventId: number): Promise<CheckIns> {
  const r = await store().get<unknown>(checkInsKey(eventId));
  const p = r ? CheckInsSchema.safeParse(r.value) : null;
  return p?.success ? p.data : { eventId, people: {}, reported: {} };
}

/**
 * A person's own answer to the sequence's "how did it go" (docs/decisions/181-shifts.md, "The event without
 * slots"), kept in the check-in document staff lists already read (one compare-and-set; the latest answer wins).
 */
export async function noteReported(
  eventId: number,
  id: string,
  outcome: 'attended' | 'absent',
  now = new Date(),
): Promise<void> {
  await upsert<unknown>(store(), checkInsKey(eventId), (raw) => {
    const p = raw ? CheckInsSchema.safeParse(raw) : null;
    const doc: CheckIns = p?.success ? p.data : { eventId, people: {}, reported: {} };
    if (doc.reported[id]?.outcome === outcome) return UNCHANGED;
    return { ...doc, reported: { ...doc.reported, [id]: { outcome, at: now.toISOString() } } };
  });
}

/**
 * Staff check-in (or undo) of one person: on their record, then in the event's
 * check-in document staff lists read (compare-and-set; only the door writes
 * it, so the roster stays uncontended).
 */
export async function setCheckedIn(
  eventId: number,
  id: string,
  checkedIn: boolean,
  by: string,
  now = new Date(),
): Promise<StoredRsvp> {
  const rec = await setRecord(eventId, id, () =>
    checkedIn
      ? { checkedInAt: now.toISOString(), checkedInBy: by }
      : { checkedInAt: null, checkedInBy: null },
  );
  if (!rec) throw new HttpError(404, 'RSVP not found');
  await upsert<unknown>(store(), checkInsKey(eventId), (raw) => {
    const p = raw ? CheckInsSchema.safeParse(raw) : null;
    const doc: CheckIns = p?.success ? p.data : { eventId, people: {}, reported: {} };
    const people = { ...doc.people };
    if (rec.checkedInAt) people[id] = { at: rec.checkedInAt, by };
    else if (id in people) delete people[id];
    else if (raw) return UNCHANGED;
    return { ...doc, people };
  });
  return rec;
}
