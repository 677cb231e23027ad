import type { Config, Context } from '@netlify/functions';
import { CheckInSchema } from '../../src/lib/schemas/rsvp.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { noteAttendance } from '../../src/lib/server/people/tags.ts';
import { pageQuery } from '../../src/lib/server/pagination.ts';
import { directExport } from '../../src/lib/server/exports/exports.ts';
import { setCheckedIn } from '../../src/lib/server/events/rsvp.ts';
import { rsvpStaffView } from '../../src/lib/server/events/rsvp-staff.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import { events } from '../../src/lib/server/content/events.ts';

/**
 * GET /api/admin/events/:id/rsvps[?page&pageSize&q][&format=csv]: going / waitlisted / capacity
 * and a page of the people, or those whose name, email or phone contains `q` (every staff role reads;
 * a page costs the same few store calls at any size: docs/decisions/155-inbox-and-staff-lists.md). PUT /api/admin/events/:id/rsvps/:rsvpId
 * {checkedIn}: check-in at the door (admin and editor). `&format=csv`: the file up to EXPORT_LIMITS.directRows
 * rows, else 413 pointing at Export CSV. Check-ins and CSV
 * exports are audited.
 */
export default handle(async (req: Request, context: Context) => {
  const rsvpId = context.params?.rsvpId;
  allowMethods(req, rsvpId === undefined ? 'GET' : 'PUT');
  const eventId = idFrom(context);
  if (req.method === 'GET') {
    const user = await requireUser(req);
    const url = new URL(req.url);
    // The `attendees` export, audited (docs/decisions/156-exports.md).
    if (url.searchParams.get('format') === 'csv')
      return directExport(user, context, 'attendees', { event: String(eventId) });
    const { page, pageSize } = pageQuery(url);
    const q = (url.searchParams.get('q') ?? '').slice(0, 100);
    return json(await rsvpStaffView(eventId, page, pageSize, q));
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  if (!rsvpId || !/^[a-f0-9]{64}$/.test(rsvpId)) throw new HttpError(404, 'RSVP not found');
  const { checkedIn } = await readJson(req, CheckInSchema, 1024);
  const rec = await setCheckedIn(eventId, rsvpId, checkedIn, user.username);
  await noteAttendance({ email: rec.email, phone: rec.phone }, eventId, rec.checkedInAt);
  const event = await events.get(eventId);
  await audit(
    context,
    user,
    checkedIn ? 'rsvp.check_in' : 'rsvp.check_out',
    event ? target.event(event) : { type: 'event', id: eventId, label: `Event ${eventId}` },
    { attendee: rec.name },
  );
  return json({ id: rec.id, checkedInAt: rec.checkedInAt });
});

export const config: Config = {
  path: ['/api/admin/events/:id/rsvps', '/api/admin/events/:id/rsvps/:rsvpId'],
};
