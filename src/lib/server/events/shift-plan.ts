import { electionStage, siteZip } from '../../election-stage.ts';
import type { PlanRow, ShiftSlot } from '../../schemas/shifts.ts';
import { getElectionCalendar } from '../election/calendar.ts';
import { HttpError } from '../errors.ts';
import { events } from '../content/events.ts';
import { addShifts, getShifts, publicSlots } from './shifts.ts';

/**
 * The staffing plan from the election calendar (docs/decisions/181-shifts.md, docs/decisions/157-election-calendar.md):
 * one action turns the stored calendar's round (its early-voting days, each with its sites and hours, and Election
 * Day with its polling hours) into slots of a chosen length on one event, the last shift of a day ending at
 * closing. A slot's id is its place, date and start (`<site>-<date>-<hhmm>`), so running the plan again adds only
 * what is missing: no duplicates, and slots staff edited are left as they are.
 */

/** Election Day's slots have no early-voting site: the polls. */
export const ELECTION_DAY_PLACE = 'election-day';

const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** A day's hours cut into shifts of `length` minutes; the last one ends at closing. */
export function shiftsOfDay(open: string, close: string, length: number): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  for (let m = minutes(open); m < minutes(close); m += length)
    out.push({ start: hhmm(m), end: hhmm(Math.min(m + length, minutes(close))) });
  return out;
}

/** The slots the calendar asks for (pure). */
export function planSlots(
  calendar: Awaited<ReturnType<typeof getElectionCalendar>>['calendar'],
  now: Date,
  shiftMinutes: number,
  needed: number,
): ShiftSlot[] {
  const { dates } = electionStage(calendar, now);
  const names = new Map(calendar.sites.map((s) => [s.id, s.name]));
  const slots: ShiftSlot[] = [];
  const add = (
    place: string,
    siteId: string | null,
    label: string,
    date: string,
    open: string,
    close: string,
  ) => {
    for (const { start, end } of shiftsOfDay(open, close, shiftMinutes))
      slots.push({
        id: `${place}-${date}-${start.replace(':', '')}`,
        date,
        start,
        end,
        capacity: needed,
        siteId,
        label,
      });
  };
  for (const day of dates.earlyVoting)
    for (const site of day.sites) add(site, site, names.get(site) ?? site, day.date, day.open, day.close);
  const ed = dates.electionDay;
  add(ELECTION_DAY_PLACE, null, 'Election Day', ed.date, ed.open, ed.close);
  return slots;
}

/** Creates the plan's missing slots on the event (404 for an unknown event). */
export async function createStaffingPlan(
  eventId: number,
  shiftMinutes: number,
  needed: number,
  by: string,
  now = new Date(),
) {
  if (!(await events.get(eventId))) throw new HttpError(404, 'Event not found');
  const { calendar } = await getElectionCalendar();
  const slots = planSlots(calendar, now, shiftMinutes, needed);
  const { added, doc } = await addShifts(eventId, slots, by, now);
  return { planned: slots.length, added, total: doc.slots.length };
}

export type { PlanRow };

/**
 * The plan view: each place and day, filled / needed, in date then place order (one read per slot's roster, and
 * the calendar's for the sites' ZIPs).
 */
export async function staffingPlanView(eventId: number): Promise<PlanRow[]> {
  const [doc, { calendar }] = await Promise.all([getShifts(eventId), getElectionCalendar()]);
  const zips = new Map(calendar.sites.map((site) => [site.id, siteZip(site)]));
  const slots = await publicSlots(eventId, doc);
  const rows = new Map<string, PlanRow>();
  for (const [i, s] of slots.entries()) {
    const place = doc.slots[i]!.siteId ?? s.label;
    const k = `${s.date}\n${place}`;
    const row = rows.get(k) ?? {
      place,
      label: s.label,
      date: s.date,
      filled: 0,
      needed: 0,
      gaps: 0,
      polls: doc.slots[i]!.siteId === null && s.id.startsWith(`${ELECTION_DAY_PLACE}-`),
      zip: zips.get(doc.slots[i]!.siteId ?? '') ?? null,
      shifts: [],
    };
    const filled = s.capacity - s.seatsLeft;
    row.filled += filled;
    row.needed += s.capacity;
    if (filled < s.capacity) row.gaps += 1;
    row.shifts.push({
      id: s.id,
      start: s.start,
      end: s.end,
      filled,
      needed: s.capacity,
      waitlisted: s.waitlisted,
    });
    rows.set(k, row);
  }
  return [...rows.values()];
}
