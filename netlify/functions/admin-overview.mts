import type { Config, Context } from '@netlify/functions';
import { OverviewQuerySchema } from '../../src/lib/schemas/overview.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { zodToHttp } from '../../src/lib/server/errors.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { overview } from '../../src/lib/server/overview/overview.ts';

/**
 * GET /api/admin/overview?period=7|30|launch (every staff role): the campaign at a glance, figures only
 * (docs/decisions/180-overview.md). Reads the daily rollups, never the records.
 */
export default handle(async (req: Request, _context: Context) => {
  allowMethods(req, 'GET');
  await requireUser(req);
  const q = OverviewQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw zodToHttp(q.error);
  return json(await overview(q.data.period));
});

export const config: Config = { path: '/api/admin/overview' };
