import type { Config } from '@netlify/functions';
import { ElectionCalendarSchema } from '../../src/lib/schemas/election.ts';
import { z } from '../../src/lib/schemas/zod.ts';
import { CACHE_TAGS, publicJson } from '../../src/lib/server/content/responses.ts';
import { getElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/**
 * GET /api/election-calendar: the election calendar the site follows (the stored one, else the seed). Public: its
 * dates, hours and sites are on the voter pages; a build reads it here (docs/decisions/157-election-calendar.md).
 */
const Projection = z.object({ calendar: ElectionCalendarSchema });

export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  const { calendar } = await getElectionCalendar();
  return publicJson(Projection, { calendar }, CACHE_TAGS.election);
});

export const config: Config = { path: '/api/election-calendar' };
