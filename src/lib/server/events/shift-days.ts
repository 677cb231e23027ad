import { z } from 'zod';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/*
 * The index of shifts by campaign day (`shift-day/<YYYY-MM-DD>`, store `rsvps`): the events that have a slot on
 * that day. Written whenever an event's slots are written (shifts.ts setShifts, addShifts); read by the
 * sequence's scheduled run (shift-sequence.ts), which reads three days of it instead of every event's slots.
 * An id stays listed after its slots on that day are gone: the run reads the slots and finds none (harmless).
 */

const DayIndexSchema = z.object({ events: z.array(z.number().int().positive()) });
export const shiftDayKey = (date: string) => key('shift-day', date);

/** Adds the event to the index of every day it has a slot on (one write per new day; nothing when listed). */
export async function indexShiftDays(eventId: number, slots: readonly { date: string }[]): Promise<void> {
  const days = [...new Set(slots.map((s) => s.date))];
  await Promise.all(
    days.map((date) =>
      upsert<unknown>(kv('rsvps'), shiftDayKey(date), (raw) => {
        const p = raw ? DayIndexSchema.safeParse(raw) : null;
        const events = p?.success ? p.data.events : [];
        if (events.includes(eventId)) return UNCHANGED;
        return { events: [...events, eventId].sort((a, b) => a - b) };
      }),
    ),
  );
}

/** The events with a slot on a campaign day (as indexed). */
export async function eventsWithShiftsOn(date: string): Promise<number[]> {
  const r = await kv('rsvps').get<unknown>(shiftDayKey(date));
  const p = r ? DayIndexSchema.safeParse(r.value) : null;
  return p?.success ? p.data.events : [];
}
