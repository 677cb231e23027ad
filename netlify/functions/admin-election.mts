import type { Config, Context } from '@netlify/functions';
import { ElectionCalendarSchema } from '../../src/lib/schemas/election.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import {
  calendarChanges,
  getElectionCalendar,
  setElectionCalendar,
} from '../../src/lib/server/election/calendar.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/**
 * The election calendar, admin only (docs/decisions/087-election-calendar.md):
 * - GET /api/admin/election  the calendar (stored, else the seed) and who changed it last
 * - PUT /api/admin/election  replace it whole: validated (dates in order, hours sensible; 400 with each field's
 *   message, nothing stored), audited. The static pages follow at the next stage check
 *   (netlify/functions/stage-rebuild.mts, docs/decisions/088-stage-rebuild.md).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'PUT');
  const admin = await requireUser(req, { permission: 'admin' });
  if (req.method === 'PUT') {
    const calendar = await readJson(req, ElectionCalendarSchema, 64 * 1024);
    const { before, after } = await setElectionCalendar(calendar, admin.username);
    await audit(context, admin, 'settings.election_calendar', null, {
      before: `mode ${before.mode}`,
      after: `mode ${after.calendar.mode}; changed: ${calendarChanges(before, calendar)}`,
    });
    await purgeTags(CACHE_TAGS.election);
    return json(after);
  }
  return json(await getElectionCalendar());
});

export const config: Config = { path: '/api/admin/election' };
