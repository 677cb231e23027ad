import { campaignToday, nextCampaignDay } from '../../campaign-time.ts';
import type { ShiftGapDay } from '../../schemas/overview.ts';
import type { ShiftSlot } from '../../schemas/shifts.ts';
import { z } from '../../schemas/zod.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { store } from './counts.ts';

/**
 * The next week's shift gaps (docs/decisions/180-overview.md): one small document per campaign day
 * (`shift-day/<day>` in the `overview` store) holding every slot of that day, its places (needed) and the places
 * taken (filled). Kept on write by the two writers of shifts (events/shifts.ts): the staff's slot writes
 * (`indexShiftSlots`: the days the event's slots were and are on) and each slot roster's fold
 * (`recordSlotFill`: the slot's filled places, stamped with the fold's time so a late writer never puts back an
 * older count). The Overview reads seven of these, whatever the store holds; `npm run reindex` rebuilds them
 * from the slots and rosters (rebuild.ts).
 */

export const SHIFT_DAY_PREFIX = 'shift-day/';
export const shiftDayKey = (day: string) => key('shift-day', day);
/** How many days ahead the Overview shows (today included). */
export const GAP_DAYS = 7;

const SlotEntrySchema = z.object({
  eventId: z.number().int(),
  slotId: z.string(),
  start: z.string(),
  end: z.string(),
  label: z.string(),
  needed: z.number().int(),
  filled: z.number().int(),
  /** When the fold that counted `filled` ran (ISO); '' before any fold. */
  v: z.string(),
});
export type SlotEntry = z.infer<typeof SlotEntrySchema>;
export const ShiftDaySchema = z.object({ day: z.string(), slots: z.record(z.string(), SlotEntrySchema) });
export type ShiftDay = z.infer<typeof ShiftDaySchema>;

export const entryKey = (eventId: number, slotId: string) => `${eventId}/${slotId}`;

function parseDay(day: string, raw: unknown): ShiftDay {
  const p = raw ? ShiftDaySchema.safeParse(raw) : null;
  return p?.success ? p.data : { day, slots: {} };
}

const entryOf = (eventId: number, s: ShiftSlot, filled: number, v: string): SlotEntry => ({
  eventId,
  slotId: s.id,
  start: s.start,
  end: s.end,
  label: s.label,
  needed: s.capacity,
  filled,
  v,
});

/**
 * After staff replaced or added an event's slots: every day the event's slots were or are on is rewritten with
 * the event's slots of that day (a moved slot keeps its filled count, a removed one leaves). One read and one
 * write per day touched. A failure is logged, never raised: the slots are saved, and `npm run reindex` rebuilds.
 */
export async function indexShiftSlots(
  eventId: number,
  before: readonly ShiftSlot[],
  after: readonly ShiftSlot[],
): Promise<void> {
  try {
    const days = [...new Set([...before, ...after].map((s) => s.date))];
    const docs = await mapLimit(days, 8, async (day) =>
      parseDay(day, (await store().get(shiftDayKey(day)))?.value),
    );
    const prior = new Map<string, SlotEntry>();
    for (const doc of docs)
      for (const e of Object.values(doc.slots)) if (e.eventId === eventId) prior.set(e.slotId, e);
    await mapLimit(days, 8, (day) =>
      upsert<unknown>(store(), shiftDayKey(day), (raw) => {
        const doc = parseDay(day, raw);
        for (const [k, e] of Object.entries(doc.slots)) if (e.eventId === eventId) delete doc.slots[k];
        for (const s of after.filter((x) => x.date === day)) {
          const had = prior.get(s.id);
          doc.slots[entryKey(eventId, s.id)] = entryOf(eventId, s, had?.filled ?? 0, had?.v ?? '');
        }
        return doc;
      }),
    );
  } catch (err) {
    console.error('[overview] the shift gaps were not updated: run npm run reindex', err);
  }
}

/**
 * After a slot's roster was folded: its filled places as of that fold (`v`, the fold's time). A count older
 * than the one stored is dropped, so two folds' writers finishing out of order leave the later count.
 */
export async function recordSlotFill(eventId: number, slot: ShiftSlot, filled: number, v: string) {
  try {
    await upsert<unknown>(store(), shiftDayKey(slot.date), (raw) => {
      const doc = parseDay(slot.date, raw);
      const k = entryKey(eventId, slot.id);
      const cur = doc.slots[k];
      if (cur && cur.v > v) return UNCHANGED;
      doc.slots[k] = entryOf(eventId, slot, filled, v);
      return doc;
    });
  } catch (err) {
    console.error('[overview] a shift fill was not counted: run npm run reindex', err);
  }
}

/**
 * The next seven campaign days' shifts (today first): per day the places needed and filled and the slots with
 * places open. Seven reads, whatever the store holds; slots of events no longer listed are left out.
 */
export async function shiftGaps(now: Date, titles: ReadonlyMap<number, string>): Promise<ShiftGapDay[]> {
  const days: string[] = [];
  for (let d = campaignToday(now); days.length < GAP_DAYS; d = nextCampaignDay(d)) days.push(d);
  const docs = await mapLimit(days, 7, async (day) =>
    parseDay(day, (await store().get(shiftDayKey(day)))?.value),
  );
  return docs.map((doc) => {
    const slots = Object.values(doc.slots)
      .filter((e) => titles.has(e.eventId))
      .sort(
        (a, b) => a.start.localeCompare(b.start) || a.eventId - b.eventId || a.slotId.localeCompare(b.slotId),
      );
    const needed = slots.reduce((n, e) => n + e.needed, 0);
    const filled = slots.reduce((n, e) => n + Math.min(e.filled, e.needed), 0);
    const open = slots.filter((e) => e.filled < e.needed);
    return {
      day: doc.day,
      needed,
      filled,
      gaps: open.map((e) => ({
        eventId: e.eventId,
        title: titles.get(e.eventId)!,
        slotId: e.slotId,
        start: e.start,
        end: e.end,
        label: e.label,
        needed: e.needed,
        filled: e.filled,
      })),
    };
  });
}

/** Writes rebuilt day documents and empties the days that had slots and now have none (reindex). */
export async function writeShiftDays(rebuilt: Map<string, ShiftDay>): Promise<number> {
  for await (const page of store().keys(SHIFT_DAY_PREFIX))
    for (const k of page) {
      const day = k.slice(SHIFT_DAY_PREFIX.length);
      if (!rebuilt.has(day)) rebuilt.set(day, { day, slots: {} });
    }
  await mapLimit([...rebuilt.values()], 8, (doc) => store().put(shiftDayKey(doc.day), doc));
  return rebuilt.size;
}

export { entryOf as slotEntry };
