import { campaignToday } from '../../campaign-time.ts';
import type { Lang } from '../../lang.ts';
import { events } from '../content/events.ts';
import { seatsTaken, waitlistPosition } from '../events/roster.ts';
import {
  cancelShift,
  getShiftRecord,
  getShifts,
  getSlotRoster,
  signUpForShifts,
  slotLine,
} from '../events/shifts.ts';
import { SUPPORTER_COPY } from '../../../content/supporter-page.ts';
import type { RequestMeta } from '../texting/text-signups.ts';
import { HttpError } from '../errors.ts';
import type { Person } from '../people/person.ts';
import { hashed } from '../storage/keys.ts';
import { mapLimit } from '../storage/map-limit.ts';

/**
 * A supporter's upcoming shifts on /my (docs/decisions/182-supporter-page.md, docs/decisions/181-shifts.md). A shift
 * sign-up is stored under the keyed hash of its email (`shift/<event>/<sha256 of email>`), so the person's own
 * addresses find their sign-ups: one read per event with slots and address, whatever the store holds. Cancelling
 * acts only on a slot found that way (the browser names the event and the slot, never the person) and goes
 * through the same roster op as the emailed cancellation link (`cancelShift`), so the first on that slot's
 * waitlist moves up in the same fold and is told once.
 */

export interface MyShift {
  eventId: number;
  eventTitle: string;
  slotId: string;
  /** The slot's date, time and place, in the page's language. */
  when: string;
  status: 'going' | 'waitlisted';
  /** On the waitlist: the place in line (1 is next). */
  position: number | null;
  /** The event's other upcoming slots this shift may move to ("switch slot"); `full`: only its waitlist. */
  others: { slotId: string; when: string; full: boolean }[];
}

interface Found extends MyShift {
  personKey: string;
  sortKey: string;
}

async function findShifts(p: Person, lang: Lang, now: Date): Promise<Found[]> {
  const today = campaignToday(now);
  const upcoming = (await events.list()).filter((e) => e.eventDate >= today);
  const keys = [...new Set(p.emails.map((e) => hashed(e)))];
  const perEvent = await mapLimit(upcoming, 8, async (event) => {
    const { slots } = await getShifts(event.id);
    if (!slots.length) return [];
    const records = await mapLimit(keys, 4, (k) => getShiftRecord(event.id, k));
    const out: Found[] = [];
    if (!records.some(Boolean)) return out;
    const open = slots.filter((s) => s.date >= today);
    const rosters = new Map(
      await mapLimit(open, 4, async (s) => [s.id, (await getSlotRoster(event.id, s.id)).entries] as const),
    );
    for (const rec of records) {
      if (!rec) continue;
      const held = new Set(
        open
          .filter((s) =>
            rosters
              .get(s.id)!
              .some((e) => e.id === rec.id && (e.status === 'going' || e.status === 'waitlisted')),
          )
          .map((s) => s.id),
      );
      for (const slot of open.filter((s) => rec.slots.includes(s.id))) {
        const entries = rosters.get(slot.id)!;
        const entry = entries.find((e) => e.id === rec.id);
        if (!entry || (entry.status !== 'going' && entry.status !== 'waitlisted')) continue;
        const others = open
          .filter((o) => !held.has(o.id))
          .map((o) => ({
            slotId: o.id,
            when: slotLine(o, lang),
            full: seatsTaken(rosters.get(o.id)!) >= o.capacity,
          }));
        out.push({
          others,
          eventId: event.id,
          eventTitle: event.title,
          slotId: slot.id,
          when: slotLine(slot, lang),
          status: entry.status,
          position: entry.status === 'waitlisted' ? waitlistPosition(entries, rec.id) : null,
          personKey: rec.id,
          sortKey: `${slot.date} ${slot.start} ${event.id}`,
        });
      }
    }
    return out;
  });
  return perEvent.flat().sort((a, b) => a.sortKey.localeCompare(b.sortKey));
}

/** The person's upcoming shifts, going or waitlisted (cancelled and past ones are left out). */
export async function myShifts(p: Person, lang: Lang, now = new Date()): Promise<MyShift[]> {
  return (await findShifts(p, lang, now)).map(({ personKey: _k, sortKey: _s, ...s }) => s);
}

/** Cancels one of the person's own upcoming shifts; 404 for any slot that is not theirs. */
export async function cancelMyShift(p: Person, eventId: number, slotId: string, now = new Date()) {
  const mine = (await findShifts(p, 'en', now)).find((s) => s.eventId === eventId && s.slotId === slotId);
  if (!mine) throw new HttpError(404, 'Shift not found');
  const event = await events.get(eventId);
  if (!event) throw new HttpError(404, 'Shift not found');
  return cancelShift(event, { slot: slotId, id: mine.personKey });
}

export interface SwitchResult {
  status: 'going' | 'waitlisted';
  position: number | null;
  /** On the target's waitlist: the old shift is kept until the supporter cancels it. */
  kept: boolean;
}

/**
 * "Switch slot" (docs/decisions/182-supporter-page.md): moves one of the person's own upcoming shifts to another
 * upcoming slot of the same event, as one action. The new slot is taken first (the same sign-up as the form's,
 * with the person's stored details), then the old one is cancelled through its roster like any cancellation, so
 * the first on its waitlist moves up and is told once. A full target is refused (409, its waitlist offered); with
 * `waitlist` the person joins the target's waitlist and KEEPS the old shift (a sure place is never traded for a
 * place in line). A place taken by someone else between the look and the fold is handed back and refused the
 * same way: the supporter never ends with neither.
 */
export async function switchMyShift(
  p: Person,
  move: { eventId: number; from: string; to: string; waitlist: boolean },
  meta: RequestMeta,
  lang: Lang,
  now = new Date(),
): Promise<SwitchResult> {
  const w = SUPPORTER_COPY[lang];
  const mine = (await findShifts(p, lang, now)).find(
    (s) => s.eventId === move.eventId && s.slotId === move.from,
  );
  const event = mine ? await events.get(move.eventId) : null;
  if (!mine || !event) throw new HttpError(404, 'Shift not found');
  if (move.to === move.from) throw new HttpError(400, w.switchSame);
  const target = mine.others.find((o) => o.slotId === move.to);
  if (!target) throw new HttpError(404, w.switchNoSlot);
  if (target.full && !move.waitlist) throw new HttpError(409, w.switchFull, { full: true });
  const rec = await getShiftRecord(event.id, mine.personKey);
  if (!rec) throw new HttpError(404, 'Shift not found');
  const signed = await signUpForShifts(
    event,
    await getShifts(event.id),
    {
      name: rec.name,
      email: rec.email,
      phone: rec.phone,
      lang: rec.lang,
      smsReminder: rec.smsReminder,
      slots: [move.to],
    },
    meta,
    now,
  );
  const got = signed.slots.find((s) => s.id === move.to);
  if (got?.status === 'going') {
    await cancelShift(event, { slot: move.from, id: mine.personKey });
    return { status: 'going', position: null, kept: false };
  }
  if (!move.waitlist) {
    // Filled meanwhile: give the waitlist place back, keep the old shift.
    await cancelShift(event, { slot: move.to, id: mine.personKey });
    throw new HttpError(409, w.switchFull, { full: true });
  }
  return { status: 'waitlisted', position: got?.position ?? null, kept: true };
}
