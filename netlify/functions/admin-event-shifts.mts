import type { Config, Context } from '@netlify/functions';
import { ShiftCheckInSchema, ShiftNoShowSchema, SLOT_ID } from '../../src/lib/schemas/shifts.ts';
import { SEQUENCE_STEPS, ShiftsPutSchema } from '../../src/lib/schemas/shift-sequence.ts';
import { getSequenceConfig, setSequenceConfig } from '../../src/lib/server/events/shift-sequence.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import { events } from '../../src/lib/server/content/events.ts';
import { directExport } from '../../src/lib/server/exports/exports.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import {
  getShifts,
  publicSlots,
  setShifts,
  setSlotCheckedIn,
  slotStaffView,
} from '../../src/lib/server/events/shifts.ts';
import {
  clearAttendance,
  isNoShowFlagged,
  recordAttendance,
  withAttendance,
} from '../../src/lib/server/events/shift-attendance.ts';
import { sendShiftNotices } from '../../src/lib/server/events/shift-notices.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';

/**
 * Staff and an event's shifts (docs/decisions/181-shifts.md). GET /api/admin/events/:id/shifts: the slots with
 * places taken and waitlists (every staff role); PUT {slots?, sequence?}: replaces them (kept when absent), and the
 * confirm-and-remind steps when given (an event without slots: its implicit slot's) (admin and editor, audited; a slot
 * someone holds a place in cannot be removed). GET /api/admin/events/:id/shifts/:slot: the slot's people with
 * check-ins (`?format=csv`: the CSV, through the export mechanism); PUT {person, checkedIn}: check-in at the door, or its undo (admin and editor, audited; it records the volunteer's attendance); PUT {person, noShow}: a no-show, or its undo. After a PUT of the slots, everyone on a changed or cancelled slot is told once (shift-notices.ts).
 */
export default handle(async (req: Request, context: Context) => {
  const slot = context.params?.slot;
  allowMethods(req, 'GET', 'PUT');
  const eventId = idFrom(context);
  if (slot !== undefined && !SLOT_ID.test(slot)) throw new HttpError(404, 'Shift not found');
  if (req.method === 'GET') {
    const user = await requireUser(req);
    // One shift's people as CSV: the `shift_attendees` export, audited (docs/decisions/156-exports.md).
    if (slot && new URL(req.url).searchParams.get('format') === 'csv')
      return directExport(user, context, 'shift_attendees', { event: String(eventId), slot });
    if (slot) return json(await withAttendance(eventId, await slotStaffView(eventId, slot)));
    const doc = await getShifts(eventId);
    return json({
      ...doc,
      places: await publicSlots(eventId, doc),
      // An event without slots: its steps are off until staff turn them on (181, "The event without slots").
      sequence: await getSequenceConfig(eventId, doc.slots.length > 0),
    });
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  const event = await events.get(eventId);
  if (!event) throw new HttpError(404, 'Event not found');
  if (!slot) {
    const { slots, sequence } = await readJson(req, ShiftsPutSchema, 128 * 1024);
    // Without `slots` the slots are kept (an event without slots sends its steps alone).
    const { cancelledNow, ...doc } = slots
      ? await setShifts(eventId, slots, user.username)
      : { ...(await getShifts(eventId)), cancelledNow: [] };
    // The confirm-and-remind steps, when sent (docs/decisions/181-shifts.md, "The sequence"); kept otherwise.
    const steps = sequence
      ? await setSequenceConfig(eventId, sequence)
      : await getSequenceConfig(eventId, doc.slots.length > 0);
    await audit(context, user, 'shift.update', target.event(event), {
      shifts: String(doc.slots.length),
      ...(sequence ? { sequence: stepsOn(steps) } : {}),
    });
    for (const id of cancelledNow)
      await audit(context, user, 'shift.cancel', target.event(event), { shift: id });
    // Everyone on a slot whose time or place changed, or that was cancelled, is told once (shift-notices.ts).
    const { told } = await sendShiftNotices(event);
    return json({ ...doc, sequence: steps, told });
  }
  const body = await readJson(req, ShiftCheckInSchema.or(ShiftNoShowSchema), 1024);
  if ('noShow' in body) {
    // A staff no-show (or its undo): attendance per volunteer (shift-attendance.ts), audited.
    const { person, noShow } = body;
    if (!(await slotStaffView(eventId, slot)).people.some((p) => p.id === person && p.status === 'going'))
      throw new HttpError(404, 'This person is not on this shift');
    if (noShow) await recordAttendance(eventId, slot, person, 'absent', 'staff');
    else await clearAttendance(eventId, slot, person, 'staff');
    await audit(context, user, 'shift.no_show', target.event(event), { shift: slot, noShow: String(noShow) });
    return json({ noShow, callDontText: await isNoShowFlagged(person) });
  }
  const { person, checkedIn } = body;
  const done = await setSlotCheckedIn(eventId, slot, person, checkedIn, user.username);
  // A check-in is the volunteer's attendance (its undo withdraws it).
  if (checkedIn) await recordAttendance(eventId, slot, person, 'attended', 'check-in');
  else await clearAttendance(eventId, slot, person, 'check-in');
  await audit(context, user, checkedIn ? 'rsvp.check_in' : 'rsvp.check_out', target.event(event), {
    shift: slot,
  });
  return json(done);
});

/** The steps that are on, for the audit entry ("dayBefore,morning,soon,followUp"; "none"). */
const stepsOn = (c: Awaited<ReturnType<typeof getSequenceConfig>>) =>
  SEQUENCE_STEPS.filter((k) => c[k].on).join(',') || 'none';

export const config: Config = {
  path: ['/api/admin/events/:id/shifts', '/api/admin/events/:id/shifts/:slot'],
};
