import type { Config } from '@netlify/functions';
import { MilestoneUpdateSchema } from '../../src/lib/schemas/progress.ts';
import { target } from '../../src/lib/server/audit/audit.ts';
import { listMilestones, updateMilestone } from '../../src/lib/server/content/progress.ts';
import { fixedRecordsHandler } from '../../src/lib/server/content/fixed-records.ts';
import { CACHE_TAGS } from '../../src/lib/server/content/responses.ts';

/** Milestones: fixed records, listed by any staff member and updated with edit_metrics (audited). */
export default fixedRecordsHandler({
  names: { list: 'milestones', one: 'milestone' },
  list: listMilestones,
  schema: MilestoneUpdateSchema,
  update: (id, input) => updateMilestone(id, input),
  permission: 'edit_metrics',
  tag: CACHE_TAGS.metrics,
  audit: { kind: 'milestone.update', target: target.milestone },
});

export const config: Config = { path: ['/api/admin/milestones', '/api/admin/milestones/:id'] };
