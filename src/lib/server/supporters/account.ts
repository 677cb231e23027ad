import type { Lang } from '../../lang.ts';
import { PLAN_PAGE } from '../../vote-plan.ts';
import { cancelToken } from '../events/cancel-link.ts';
import { events } from '../content/events.ts';
import { cancelRsvp } from '../events/rsvp.ts';
import { HttpError } from '../errors.ts';
import { recordConsent } from '../people/consent.ts';
import { forgetPerson, type ForgetReport } from './forget-person.ts';
import { getPerson, timelineOf, type Channel, type Person } from '../people/person.ts';
import { stopContact } from '../messaging/stop.ts';
import { hashed } from '../storage/keys.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { update } from '../storage/compare-and-set.ts';
import { personKey as textListKey } from '../texting/text-list.ts';
import { updateVotePlan } from '../vote-plans/update.ts';
import { SUPPORTER_COPY } from '../../../content/supporter-page.ts';
import { inviteCodeOf, inviteCounts } from './invites.ts';
import { myShifts, type MyShift } from './shifts.ts';

/**
 * What a signed-in supporter sees and changes on /my (docs/decisions/182-supporter-page.md): their record as staff
 * see it less staff notes, their RSVPs and plan to vote, consent per channel, the invite code and its counts, and
 * "delete my data". Every action acts on the session's person only; an RSVP or a plan is found through the
 * person's own timeline, never through an id the browser sends alone.
 */

export interface MyRsvp {
  eventId: number;
  rsvpId: string;
  status: string | null;
  eventTitle: string | null;
  startsAt: string | null;
}
export interface MyPlan {
  round: string | null;
  day: string | null;
  method: string | null;
  stopped: boolean;
  page: string;
}
export interface MyData {
  person: Pick<
    Person,
    'id' | 'names' | 'emails' | 'phones' | 'zip' | 'city' | 'lang' | 'sources' | 'consent'
  > & {
    createdAt: string;
  };
  timeline: { at: string; source: string; detail: Record<string, string | number | null> }[];
  /** The records the timeline links to, as stored (the form records staff see). */
  records: { store: string; record: unknown }[];
  rsvps: MyRsvp[];
  /** Upcoming shifts, going or waitlisted (as /my lists them). */
  shifts: MyShift[];
  plans: MyPlan[];
  invite: { code: string; counts: Awaited<ReturnType<typeof inviteCounts>> };
}

/** Fields of a stored record that are staff's own (notes) or the platform's (IP, agent): never shown here. */
const STAFF_ONLY = new Set(['notes', 'staffNotes', 'ip', 'userAgent', 'linkId', 'checkedInBy']);
const strip = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter(([k]) => !STAFF_ONLY.has(k)))
    : v;

export async function myData(p: Person, now = new Date()): Promise<MyData> {
  const timeline = await timelineOf(p);
  const records = await mapLimit(timeline, 8, async (e) => {
    if (!e.store || !e.key || e.store === 'donations') return null;
    const r = await kv(e.store)
      .get<unknown>(e.key)
      .catch(() => null);
    return r ? { store: e.store, key: e.key, source: e.source, value: r.value, detail: e.detail } : null;
  });
  const found = records.filter((r) => r !== null);
  const rsvps: MyRsvp[] = await mapLimit(
    found.filter((r) => r.source === 'rsvp' && typeof r.detail.eventId === 'number'),
    4,
    async (r) => {
      const v = r.value as Record<string, unknown>;
      const eventId = r.detail.eventId as number;
      const event = await events.get(eventId).catch(() => null);
      return {
        eventId,
        rsvpId: r.key.slice(r.key.lastIndexOf('/') + 1),
        status: typeof v.status === 'string' ? v.status : null,
        eventTitle: event?.title ?? null,
        startsAt: event ? `${event.eventDate} ${event.startTime}` : null,
      };
    },
  );
  const plans: MyPlan[] = found
    .filter((r) => r.store === 'vote-plans')
    .map((r) => {
      const v = r.value as Record<string, unknown>;
      return {
        round: typeof v.round === 'string' ? v.round : null,
        day: typeof v.day === 'string' ? v.day : null,
        method: typeof v.method === 'string' ? v.method : null,
        stopped: typeof v.stoppedAt === 'string',
        page: `${p.lang === 'es' ? '/es' : ''}${PLAN_PAGE}?id=${String(v.linkId)}`,
      };
    });
  return {
    person: {
      id: p.id,
      names: p.names,
      emails: p.emails,
      phones: p.phones,
      zip: p.zip,
      city: p.city,
      lang: p.lang,
      sources: p.sources,
      consent: p.consent,
      createdAt: p.createdAt,
    },
    // Staff notes are a consent entry's `ref` (what staff recorded it from): left out.
    timeline: timeline.map((e) => ({ at: e.at, source: e.source, detail: { ...e.detail, ref: null } })),
    records: found.map((r) => ({ store: r.store, record: strip(r.value) })),
    rsvps,
    shifts: await myShifts(p, p.lang === 'es' ? 'es' : 'en', now),
    plans,
    invite: { code: await inviteCodeOf(p.id, now), counts: await inviteCounts(p.id) },
  };
}

/** Cancels one of the person's own RSVPs (found on their timeline). */
export async function cancelMyRsvp(p: Person, eventId: number, rsvpId: string, now = new Date()) {
  const mine = (await myData(p, now)).rsvps.some((r) => r.eventId === eventId && r.rsvpId === rsvpId);
  if (!mine) throw new HttpError(404, 'RSVP not found');
  return cancelRsvp({ event: eventId, token: cancelToken(eventId, rsvpId) }, now);
}

/** Stops the reminders of the person's own plans to vote. */
export async function stopMyPlanReminders(p: Person, now = new Date()): Promise<number> {
  let n = 0;
  for (const e of await timelineOf(p)) {
    if (e.store !== 'vote-plans' || !e.key) continue;
    const plan = await kv('vote-plans').get<{ linkId?: string }>(e.key);
    if (!plan?.value.linkId) continue;
    await updateVotePlan(plan.value.linkId, { action: 'stop' }, now);
    n += 1;
  }
  return n;
}

export async function stopChannel(p: Person, channel: Channel, now = new Date()) {
  await stopContact(p.id, [channel], 'supporter_page', now);
}

/**
 * Resumes texts: only with the consent box checked, its exact wording recorded in the person's consent ledger,
 * and the text list's STOP lifted for each of their numbers.
 */
export async function resumeTexts(p: Person, consented: boolean, lang: Lang, now = new Date()) {
  if (!consented) throw new HttpError(400, SUPPORTER_COPY[lang].consentRequired);
  const wording = SUPPORTER_COPY[lang].resumeTextsConsent;
  await recordConsent(p.id, { channel: 'text', action: 'opt_in', via: 'supporter_page', at: now, wording });
  for (const phone of p.phones) {
    await update<Record<string, unknown>>(kv('signups'), textListKey(hashed(phone)), (cur) =>
      cur.smsStatus === 'opted_out'
        ? { ...cur, smsStatus: 'subscribed', optedOutAt: null, updatedAt: now.toISOString() }
        : cur,
    );
  }
}

/** "Delete my data": the people forget-me (which takes the invite codes, credits and open sign-in links too). */
export async function forgetMe(
  p: Person,
  confirmed: boolean,
  lang: Lang,
  now = new Date(),
): Promise<ForgetReport> {
  if (!confirmed) throw new HttpError(400, SUPPORTER_COPY[lang].forgetConfirmRequired);
  const report = await forgetPerson(p.id, now);
  // Still here only if a concurrent write brought the person back: the session must not outlive the request.
  if (await getPerson(p.id)) throw new HttpError(409, 'Please try again');
  return report;
}
