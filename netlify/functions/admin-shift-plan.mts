import type { Config, Context } from '@netlify/functions';
import { ShiftPlanInputSchema } from '../../src/lib/schemas/shifts.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import { events } from '../../src/lib/server/content/events.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import { createStaffingPlan, staffingPlanView } from '../../src/lib/server/events/shift-plan.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/**
 * The staffing plan (docs/decisions/181-shifts.md). POST /api/admin/shift-plan {eventId, shiftMinutes, needed}:
 * creates the missing slots for every early-voting site and day and Election Day from the stored election
 * calendar (admin and editor, audited); a second run adds none. GET ?event=<id>: each place and day, filled /
 * needed, with its gaps (every staff role).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'POST');
  if (req.method === 'GET') {
    await requireUser(req);
    const id = Number(new URL(req.url).searchParams.get('event'));
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(400, 'Choose an event');
    return json({ rows: await staffingPlanView(id) });
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  const input = await readJson(req, ShiftPlanInputSchema, 1024);
  const result = await createStaffingPlan(input.eventId, input.shiftMinutes, input.needed, user.username);
  const event = await events.get(input.eventId);
  if (event) await audit(context, user, 'shift.plan', target.event(event), { added: String(result.added) });
  return json(result, { status: result.added ? 201 : 200 });
});

export const config: Config = { path: '/api/admin/shift-plan' };
