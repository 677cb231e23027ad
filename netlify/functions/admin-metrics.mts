import type { Config, Context } from '@netlify/functions';
import { MetricUpdateSchema } from '../../src/lib/schemas/progress.ts';
import { listMetrics, updateMetric } from '../../src/lib/server/content/progress.ts';
import { adminPage, CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';

/** Fixed records: list (view_admin) and update (edit_metrics) only. */
export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  allowMethods(req, hasId ? 'PUT' : 'GET');
  if (req.method === 'GET') {
    await requireUser(req);
    return adminPage('metrics', await listMetrics(), req);
  }
  const user = await requireUser(req, { permission: 'edit_metrics' });
  const metric = await updateMetric(idFrom(context), await readJson(req, MetricUpdateSchema));
  await audit(context, user, 'metric.update', target.metric(metric));
  await purgeTags(CACHE_TAGS.metrics);
  return json({ metric });
});

export const config: Config = { path: ['/api/admin/metrics', '/api/admin/metrics/:id'] };
