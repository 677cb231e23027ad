import type { Config, Context } from '@netlify/functions';
import { ElectionCalendarSchema, SitesCsvSchema } from '../../src/lib/schemas/election.ts';
import { SITES_CSV_MAX_BYTES } from '../../src/lib/schemas/election-sites-csv.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import {
  calendarChanges,
  getElectionCalendar,
  importSitesCsv,
  setElectionCalendar,
} from '../../src/lib/server/election/calendar.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/**
 * The election calendar, admin only (docs/decisions/087-election-calendar.md):
 * - GET /api/admin/election  the calendar (stored, else the seed) and who changed it last
 * - PUT /api/admin/election  replace it whole: validated (dates in order, hours sensible; 400 with each field's
 *   message, nothing stored), audited. The static pages follow at the next stage check
 *   (netlify/functions/stage-rebuild.mts, docs/decisions/088-stage-rebuild.md).
 * - POST /api/admin/election/sites {csv}  replace the early-voting sites from a CSV file: every bad row refused with
 *   its number and reason, nothing half-imported, audited (docs/decisions/112-site-csv-import.md).
 */
export default handle(async (req: Request, context: Context) => {
  const sites = new URL(req.url).pathname.replace(/\/+$/, '').endsWith('/sites');
  allowMethods(req, ...(sites ? ['POST'] : ['GET', 'PUT']));
  const admin = await requireUser(req, { permission: 'admin' });
  if (sites) {
    const { csv } = await readJson(req, SitesCsvSchema, SITES_CSV_MAX_BYTES + 1024);
    const { before, after, count } = await importSitesCsv(csv, admin.username);
    await audit(context, admin, 'settings.election_calendar', null, {
      before: `${before.sites.length} sites`,
      after: `${count} sites imported from a CSV file; changed: ${calendarChanges(before, after.calendar)}`,
    });
    await purgeTags(CACHE_TAGS.election);
    return json(after);
  }
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

export const config: Config = { path: ['/api/admin/election', '/api/admin/election/sites'] };
