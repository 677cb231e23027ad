import type { Config, Context } from '@netlify/functions';
import {
  ElectionCalendarSchema,
  NextElectionSchema,
  SitesCsvSchema,
} from '../../src/lib/schemas/election.ts';
import { SITES_CSV_MAX_BYTES } from '../../src/lib/schemas/election-sites-csv.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import {
  calendarChanges,
  getElectionCalendar,
  importSitesCsv,
  setElectionCalendar,
  startNextElection,
} from '../../src/lib/server/election/calendar.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/**
 * The election calendar, admin only (docs/decisions/157-election-calendar.md):
 * - GET /api/admin/election  the calendar (stored, else the seed) and who changed it last
 * - PUT /api/admin/election  replace it whole: validated (dates in order, hours sensible; 400 with each field's
 *   message, nothing stored), audited. The static pages follow at the next stage check
 *   (netlify/functions/stage-rebuild.mts, docs/decisions/157-election-calendar.md).
 * - POST /api/admin/election/sites {csv}  replace the early-voting sites from a CSV file: every bad row refused with
 *   its number and reason, nothing half-imported, audited (docs/decisions/157-election-calendar.md).
 * - POST /api/admin/election/next {electionDay}  start the next election: once the one the site follows is over
 *   (409 before), the last election's dates move to the new Election Day (after today, else 400), the outcome and
 *   runoff are cleared, audited (docs/decisions/157-election-calendar.md, "Starting the next election").
 */
export default handle(async (req: Request, context: Context) => {
  const path = new URL(req.url).pathname.replace(/\/+$/, '');
  const sites = path.endsWith('/sites');
  const next = path.endsWith('/next');
  allowMethods(req, ...(sites || next ? ['POST'] : ['GET', 'PUT']));
  const admin = await requireUser(req, { permission: 'admin' });
  if (next) {
    const { electionDay } = await readJson(req, NextElectionSchema, 1024);
    const { before, after } = await startNextElection(electionDay, admin.username);
    await audit(context, admin, 'settings.election_calendar', null, {
      before: `Election Day ${before.primary.electionDay.date}, mode ${before.mode}`,
      after: `next election started: Election Day ${electionDay}; changed: ${calendarChanges(before, after.calendar)}`,
    });
    await purgeTags(CACHE_TAGS.election);
    return json(after);
  }
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

export const config: Config = {
  path: ['/api/admin/election', '/api/admin/election/sites', '/api/admin/election/next'],
};
