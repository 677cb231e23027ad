import { z } from 'zod';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';

/*
 * Attendance at a volunteer shift, one document per slot (`shift-attendance/<event>/<slot>`, store `rsvps`):
 * person -> attended or absent, who said so and when (docs/decisions/181-shifts.md, "The sequence"). The
 * follow-up email's two links record the volunteer's own answer here (source `volunteer`); staff's word
 * (`staff`) always wins over the volunteer's, and a volunteer's answer never replaces staff's. Counts per
 * volunteer and no-show flags are built on top of this module's two functions.
 */

export const ATTENDANCE = ['attended', 'absent'] as const;
export type Attendance = (typeof ATTENDANCE)[number];
export const ATTENDANCE_SOURCES = ['volunteer', 'staff'] as const;
export type AttendanceSource = (typeof ATTENDANCE_SOURCES)[number];

export const SlotAttendanceSchema = z.object({
  people: z.record(
    z.string(),
    z.object({ status: z.enum(ATTENDANCE), source: z.enum(ATTENDANCE_SOURCES), at: z.string() }),
  ),
});
export type SlotAttendance = z.infer<typeof SlotAttendanceSchema>;

const store = (): KV => kv('rsvps');
export const slotAttendanceKey = (eventId: number, slotId: string) =>
  key('shift-attendance', eventId, slotId);

/** One slot's attendance (empty when nobody answered yet). */
export async function getSlotAttendance(eventId: number, slotId: string): Promise<SlotAttendance> {
  const r = await store().get<unknown>(slotAttendanceKey(eventId, slotId));
  const p = r ? SlotAttendanceSchema.safeParse(r.value) : null;
  return p?.success ? p.data : { people: {} };
}

/**
 * Records whether a person came to a slot. `personKey` is the person's id on the slot's roster (the sha256 of
 * their email). A volunteer's answer does not replace staff's; the same answer again writes nothing. Answers
 * what is on record for the person afterwards.
 */
export async function recordAttendance(
  eventId: number,
  slotId: string,
  personKey: string,
  status: Attendance,
  source: AttendanceSource,
  now = new Date(),
): Promise<{ status: Attendance; source: AttendanceSource; at: string }> {
  let kept = { status, source, at: now.toISOString() };
  await upsert<unknown>(store(), slotAttendanceKey(eventId, slotId), (raw) => {
    const p = raw ? SlotAttendanceSchema.safeParse(raw) : null;
    const people = { ...(p?.success ? p.data.people : {}) };
    const cur = people[personKey];
    if (
      cur &&
      ((cur.source === 'staff' && source === 'volunteer') || (cur.status === status && cur.source === source))
    ) {
      kept = cur;
      return UNCHANGED;
    }
    kept = { status, source, at: now.toISOString() };
    people[personKey] = kept;
    return { people };
  });
  return kept;
}
