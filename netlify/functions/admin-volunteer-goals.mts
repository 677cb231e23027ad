import type { Config, Context } from '@netlify/functions';
import { VolunteerGoalUpdateSchema } from '../../src/lib/schemas/progress.ts';
import { listGoals, updateGoal } from '../../src/lib/server/content/progress.ts';
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
    return adminPage('goals', await listGoals(), req);
  }
  const user = await requireUser(req, { permission: 'edit_metrics' });
  const goal = await updateGoal(idFrom(context), await readJson(req, VolunteerGoalUpdateSchema));
  await audit(context, user, 'goal.update', target.goal(goal));
  await purgeTags(CACHE_TAGS.metrics);
  return json({ goal });
});

export const config: Config = { path: ['/api/admin/volunteer-goals', '/api/admin/volunteer-goals/:id'] };
