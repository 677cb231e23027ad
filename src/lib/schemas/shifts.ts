import { z } from './zod.ts';
import { formatEventDate, formatTime } from '../campaign-time.ts';
import { isoDate, time24 } from './fields.ts';
import { DEFAULT_LANG, type Lang } from '../lang.ts';

/*
 * Volunteer shifts (docs/decisions/181-shifts.md): an event may have time slots, each with its own capacity,
 * waitlist, check-in and attendee list. The slots of an event live in one small document (store `rsvps`, key
 * `shifts/<event id>`); each slot's roster is folded from ops like the event's (docs/decisions/150-rsvp.md). An
 * event with no slots is one implicit slot: the event's own roster, exactly as before. Dates and times are
 * campaign dates and hours (src/lib/campaign-time.ts), like the event's.
 */

/** A slot's id: letters, digits and dashes (the staffing plan makes `<site>-<date>-<hhmm>`). */
export const SLOT_ID = /^[a-z0-9][a-z0-9-]{0,79}$/;
export const slotId = z.string().regex(SLOT_ID, 'Choose a shift');
/**
 * The id of an event's implicit slot (an event without slots: docs/decisions/181-shifts.md, "The event without
 * slots"): the confirm-and-remind sequence keys its records and links by it, so no real slot may take it.
 */
export const EVENT_SLOT = 'event';

/** At most this many slots per event (4 sites x 8 days x 8 shifts fits). */
export const MAX_SLOTS = 300;
/** At most this many slots in one sign-up. */
export const MAX_SLOTS_PER_SIGNUP = 20;

export const ShiftSlotSchema = z
  .object({
    id: slotId,
    date: isoDate,
    start: time24,
    end: time24,
    /** Places in the slot (the plan's "needed"). */
    capacity: z.coerce.number().int().min(1, 'At least 1 place').max(10_000),
    /** Where: an early-voting site's id from the election calendar, or null. */
    siteId: z.string().max(80).nullable().default(null),
    /** What the public page and staff read (a site's name, "Phone bank"); empty means the time only. */
    label: z.string().trim().max(120).default(''),
  })
  .refine((s) => s.start < s.end, { message: 'A shift must end after it starts', path: ['end'] });
export type ShiftSlot = z.infer<typeof ShiftSlotSchema>;

/**
 * A slot's time-and-place version (docs/decisions/181-shifts.md, "Notices"): `v` moves on with every change of its
 * date, hours, site or label; `noticed` is the last version whose notices all went out.
 */
export const SlotVersionSchema = z.object({ v: z.number().int().min(0), noticed: z.number().int().min(0) });

/** A slot staff cancelled while people held places: out of `slots`, kept here until everyone on it is told. */
export const CancelledSlotSchema = z.object({
  slot: ShiftSlotSchema,
  at: z.string(),
  by: z.string(),
  noticed: z.boolean().default(false),
});
export type CancelledSlot = z.infer<typeof CancelledSlotSchema>;

export const ShiftsDocSchema = z.object({
  eventId: z.number().int().positive(),
  slots: z.array(ShiftSlotSchema).max(MAX_SLOTS),
  updatedAt: z.string().nullable().default(null),
  updatedBy: z.string().nullable().default(null),
  versions: z.record(z.string(), SlotVersionSchema).default({}),
  cancelled: z.array(CancelledSlotSchema).default([]),
});
export type ShiftsDoc = z.infer<typeof ShiftsDocSchema>;

/** PUT /api/admin/events/:id/shifts: the event's slots, whole (ids unique). */
export const ShiftsInputSchema = z.strictObject({
  slots: z
    // `cancelled: true` cancels a slot people hold places in: they are told, once (audited as shift.cancel).
    .array(ShiftSlotSchema.and(z.object({ cancelled: z.boolean().optional() })))
    .max(MAX_SLOTS)
    .refine((slots) => new Set(slots.map((s) => s.id)).size === slots.length, 'Two shifts have the same id')
    .refine((slots) => !slots.some((s) => s.id === EVENT_SLOT), `The shift id "${EVENT_SLOT}" is reserved`),
});

/** POST /api/admin/shift-plan: the staffing plan from the election calendar. */
export const ShiftPlanInputSchema = z.strictObject({
  eventId: z.coerce.number().int().positive(),
  /** The length of a shift, in minutes (the last shift of a day ends at closing). */
  shiftMinutes: z.coerce
    .number()
    .int()
    .min(30, 'At least 30 minutes')
    .max(14 * 60),
  /** People needed per shift. */
  needed: z.coerce.number().int().min(1).max(1000).default(2),
});

/** POST /api/admin/events/:id/shifts/:slot/checkin: check in (or undo) one person. */
export const ShiftCheckInSchema = z.strictObject({
  person: z.string().regex(/^[a-f0-9]{64}$/, 'Unknown person'),
  checkedIn: z.boolean(),
});

/** PUT /api/admin/events/:id/shifts/:slot: a no-show (or its undo) for one person on the slot. */
export const ShiftNoShowSchema = z.strictObject({
  person: z.string().regex(/^[a-f0-9]{64}$/, 'Unknown person'),
  noShow: z.boolean(),
});

/** A volunteer's shifts as staff read them (the person page, the People CSV): docs/decisions/181-shifts.md. */
export interface ShiftAttendanceCounts {
  signedUp: number;
  confirmed: number;
  attended: number;
  noShow: number;
  /** Two no-shows in a row: call, don't text (no more shift texts). */
  callDontText: boolean;
}

/** One slot's outcome in a sign-up's answer. */
export interface ShiftSlotResult {
  id: string;
  status: 'going' | 'waitlisted';
  position: number | null;
}

/** What the public page shows of a slot (no personal data). */
export interface PublicSlot {
  id: string;
  date: string;
  start: string;
  end: string;
  label: string;
  capacity: number;
  seatsLeft: number;
  waitlisted: number;
}

/** A slot as a person reads it: "Saturday, September 27, 2025, 8:30 AM - 11:30 AM (City Hall)". */
export function slotLine(s: Pick<ShiftSlot, 'date' | 'start' | 'end' | 'label'>, lang: 'en' | 'es'): string {
  const locale = lang === 'es' ? 'es-US' : 'en-US';
  const where = s.label ? ` (${s.label})` : '';
  return `${formatEventDate(s.date, locale)}, ${formatTime(s.start, locale)} - ${formatTime(s.end, locale)}${where}`;
}

/** One slot's calendar file (public): `/events/<event>/shifts/<slot>.ics`, in a language's path. */
export const shiftIcsPath = (eventId: number, slot: string, lang: Lang) =>
  `${lang === DEFAULT_LANG ? '' : `/${lang}`}/events/${eventId}/shifts/${slot}.ics`;

/** One row of the plan view: a place on a day, its shifts filled / needed. */
export interface PlanRow {
  place: string;
  label: string;
  date: string;
  filled: number;
  needed: number;
  /** Shifts of the row with fewer people than places. */
  gaps: number;
  /** Election Day's polls (no early-voting site), shown as "Election Day polls". */
  polls: boolean;
  /** The site's ZIP (election-stage.ts siteZip), null for the polls or a site the calendar no longer has. */
  zip: string | null;
  shifts: { id: string; start: string; end: string; filled: number; needed: number; waitlisted: number }[];
}
