import type { Config } from '@netlify/functions';
import { VolunteerGoalUpdateSchema } from '../../src/lib/schemas/progress.ts';
import { target } from '../../src/lib/server/audit/audit.ts';
import { listGoals, updateGoal } from '../../src/lib/server/content/progress.ts';
import { fixedRecordsHandler } from '../../src/lib/server/content/fixed-records.ts';
import { CACHE_TAGS } from '../../src/lib/server/content/responses.ts';

/** Weekly volunteer goals: fixed records, listed by any staff member and updated with edit_metrics (audited). */
export default fixedRecordsHandler({
  names: { list: 'goals', one: 'goal' },
  list: listGoals,
  schema: VolunteerGoalUpdateSchema,
  update: (id, input) => updateGoal(id, input),
  permission: 'edit_metrics',
  tag: CACHE_TAGS.metrics,
  audit: { kind: 'goal.update', target: target.goal },
});

export const config: Config = { path: ['/api/admin/volunteer-goals', '/api/admin/volunteer-goals/:id'] };
