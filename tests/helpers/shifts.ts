import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import type { ShiftSlot } from '../../src/lib/schemas/shifts.ts';
import { call } from './http.ts';

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

/** Two slots of `capacity` on that Saturday: `am` 09:00-12:00 and `pm` 12:00-15:00. */
export const morningAndAfternoon = (capacity: number): ShiftSlot[] => [
  shiftSlot('am', capacity),
  shiftSlot('pm', capacity, { start: '12:00', end: '15:00' }),
];

/** Staff set an event's slots through the real handler (PUT /api/admin/events/:id/shifts); the response. */
export const putShifts = (eventId: number, slots: ShiftSlot[], cookie: string) =>
  call(shiftsFn, `/api/admin/events/${eventId}/shifts`, { method: 'PUT', json: { slots }, cookie });
