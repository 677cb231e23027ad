import { registerConsentReader } from '../texting/text-guard.ts';
import { isNoShowFlagged } from './shift-attendance.ts';
import { sourceFor } from './sequence-source.ts';
import { getShiftRecord } from './shifts.ts';

/**
 * The consent of a shift's texts (docs/decisions/181-shifts.md, "The sequence"), read fresh by the text guard
 * (src/lib/server/texting/text-guard.ts): the volunteer asked for texts to this very number when signing up, and
 * still holds a place on the slot (not cancelled, not removed, not waiting), and is not flagged "call, don't text"
 * (two no-shows in a row: shift-attendance.ts). For an event without slots (its implicit slot) the sign-up is the
 * RSVP, and the place the RSVP's on the event's roster (sequence-source.ts).
 */
export async function shiftTextConsent(
  eventId: number,
  slotId: string,
  personId: string,
  to: string,
): Promise<boolean> {
  const source = sourceFor(slotId);
  const rec = await source.person(eventId, slotId, personId);
  if (!rec?.smsReminder || rec.phone !== to || !rec.slots.includes(slotId)) return false;
  if (await isNoShowFlagged(personId)) return false;
  const { entries } = await source.roster(eventId, slotId);
  return entries.some((e) => e.id === personId && e.status === 'going');
}

// The guard asks this folder's reader at the moment of sending (texting/ sits below events/: 153-storage.md).
registerConsentReader('shift_reminder', ({ eventId, slotId, personId }, to) =>
  shiftTextConsent(eventId, slotId, personId, to),
);

// A notice of a changed or cancelled shift: the volunteer asked for texts to this very number when signing up.
registerConsentReader('shift_notice', async ({ eventId, personKey }, to) => {
  const rec = await getShiftRecord(eventId, personKey);
  return rec?.smsReminder === true && rec.phone === to && !(await isNoShowFlagged(personKey));
});
