import { campaignToday } from '../../campaign-time.ts';
import type { Lang } from '../../lang.ts';
import { events } from '../content/events.ts';
import { waitlistPosition } from '../events/roster.ts';
import { cancelShift, getShiftRecord, getShifts, getSlotRoster, slotLine } from '../events/shifts.ts';
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
    for (const rec of records) {
      if (!rec) continue;
      for (const slot of slots.filter((s) => rec.slots.includes(s.id) && s.date >= today)) {
        const { entries } = await getSlotRoster(event.id, slot.id);
        const entry = entries.find((e) => e.id === rec.id);
        if (!entry || (entry.status !== 'going' && entry.status !== 'waitlisted')) continue;
        out.push({
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
