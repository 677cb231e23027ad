import { sequenceCopy } from '../../../content/shift-sequence.ts';
import type { Lang } from '../../lang.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import { toPublicEvent } from '../../schemas/public-projections.ts';
import type { Roster } from '../../schemas/rsvp.ts';
import { EVENT_SLOT, slotLine, type ShiftSlot } from '../../schemas/shifts.ts';
import { cancelPlace, getCheckIns, getRoster, getRsvp, noteReported } from './rsvp.ts';
import {
  cancelShift,
  getShiftRecord,
  getShifts,
  getSlotCheckIns,
  getSlotRoster,
  type ShiftRecord,
} from './shifts.ts';

/*
 * Where the confirm-and-remind sequence (docs/decisions/181-shifts.md, "The sequence") reads a slot's people and
 * acts on their answers: two small sources behind one interface, so the sequence's run, its claims, its answers
 * and its consent are one code for both.
 *
 * - A real slot (`shifts/<event>`): its roster `shift-roster/<event>/<slot>`, the volunteer's sign-up
 *   `shift/<event>/<person>`, the slot's check-in, and a cancel that frees the slot's place (shifts.ts).
 * - An event without slots is ONE implicit slot, id EVENT_SLOT ("The event without slots"): the event's own RSVP
 *   roster `roster/<event>`, the RSVP `rsvp/<event>/<person>`, the event's check-in `checkin/<event>`, and the
 *   RSVP's cancel (the waitlist moves up: rsvp.ts cancelPlace). Its date and hours are the event's.
 */

/** What the sequence needs of a person: a sign-up's details, and the slots it asked for. */
export type SequencePerson = Pick<
  ShiftRecord,
  'id' | 'name' | 'email' | 'phone' | 'lang' | 'smsReminder' | 'slots'
>;

export interface SequenceSource {
  /** The slot's roster, read fresh (who is going, waiting, cancelled). */
  roster(eventId: number, slotId: string): Promise<Roster>;
  /** The person's details as they signed up, or null. */
  person(eventId: number, slotId: string, personId: string): Promise<SequencePerson | null>;
  /** Frees the person's place (the waitlist moves up). */
  cancel(event: CampaignEvent, slotId: string, personId: string): Promise<void>;
  /** Whether staff checked the person in (their word on attendance stands). */
  checkedIn(eventId: number, slotId: string, personId: string): Promise<boolean>;
  /** Where staff see the person's own "how did it go" beside them (a slot's roster reads the attendance records). */
  reported(eventId: number, slotId: string, personId: string, outcome: 'attended' | 'absent'): Promise<void>;
}

const slotted: SequenceSource = {
  roster: getSlotRoster,
  person: (eventId, _slotId, personId) => getShiftRecord(eventId, personId),
  cancel: async (event, slot, id) => void (await cancelShift(event, { slot, id })),
  checkedIn: async (eventId, slotId, personId) =>
    Boolean((await getSlotCheckIns(eventId, slotId)).people[personId]),
  // A slot's roster for staff reads the attendance records (shift-attendance.ts withAttendance): nothing more.
  reported: () => Promise.resolve(),
};

const plain: SequenceSource = {
  roster: (eventId) => getRoster(eventId),
  person: async (eventId, _slotId, personId) => {
    const rec = await getRsvp(eventId, personId);
    return rec && { ...rec, slots: [EVENT_SLOT] };
  },
  cancel: async (event, _slotId, personId) => {
    const rec = await getRsvp(event.id, personId);
    if (rec) await cancelPlace(event.id, event, rec);
  },
  checkedIn: async (eventId, _slotId, personId) => Boolean((await getCheckIns(eventId)).people[personId]),
  // Beside the person in the attendee list and its CSV (the check-in document: no read more for staff).
  reported: (eventId, _slotId, personId, outcome) => noteReported(eventId, personId, outcome),
};

/** The source of a slot: the implicit slot's is the event's RSVPs. */
export const sourceFor = (slotId: string): SequenceSource => (slotId === EVENT_SLOT ? plain : slotted);

/** An event without slots as its one implicit slot: the event's date and hours, its title as the label. */
export function implicitSlot(event: CampaignEvent): ShiftSlot {
  return {
    id: EVENT_SLOT,
    date: event.eventDate,
    start: event.startTime,
    end: event.endTime && event.endTime > event.startTime ? event.endTime : event.startTime,
    capacity: event.maxAttendees ?? 10_000,
    siteId: null,
    label: event.title,
  };
}

/** A slot of an event by id: a real one from its slots document, or the implicit one when it has none. */
export async function slotOf(event: CampaignEvent, slotId: string): Promise<ShiftSlot | null> {
  const { slots } = await getShifts(event.id);
  if (slotId === EVENT_SLOT) return slots.length ? null : implicitSlot(event);
  return slots.find((s) => s.id === slotId) ?? null;
}

/**
 * The sequence's words and the slot's line in a language: an event without slots (its implicit slot) says the
 * event's title in that language, and an RSVP's words, not a shift's.
 */
export function sequenceWords(event: CampaignEvent, slot: ShiftSlot, lang: Lang) {
  const plain = slot.id === EVENT_SLOT;
  const line = slotLine(plain ? { ...slot, label: toPublicEvent(event, lang).title } : slot, lang);
  return { w: sequenceCopy(lang, plain), shift: line };
}
