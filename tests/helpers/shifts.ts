import type { ShiftSlot } from '../../src/lib/schemas/shifts.ts';

/**
 * A shift slot as staff enter it (docs/decisions/181-shifts.md): by default 09:00-12:00 on Saturday 2031-01-04 (years
 * ahead: never past), at no site, labelled "Shift <id>"; `over` sets any other field.
 */
export const shiftSlot = (id: string, capacity: number, over: Partial<ShiftSlot> = {}): ShiftSlot => ({
  id,
  date: '2031-01-04',
  start: '09:00',
  end: '12:00',
  capacity,
  siteId: null,
  label: `Shift ${id}`,
  ...over,
});
