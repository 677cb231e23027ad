import type { Config, Context } from '@netlify/functions';
import { MilestoneUpdateSchema } from '../../src/lib/schemas/progress.ts';
import { listMilestones, updateMilestone } from '../../src/lib/server/content/progress.ts';
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
    return adminPage('milestones', await listMilestones(), req);
  }
  const user = await requireUser(req, { permission: 'edit_metrics' });
  const milestone = await updateMilestone(idFrom(context), await readJson(req, MilestoneUpdateSchema));
  await audit(context, user, 'milestone.update', target.milestone(milestone));
  await purgeTags(CACHE_TAGS.metrics);
  return json({ milestone });
});

export const config: Config = { path: ['/api/admin/milestones', '/api/admin/milestones/:id'] };
