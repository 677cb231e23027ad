import type { Config } from '@netlify/functions';
import { MetricUpdateSchema } from '../../src/lib/schemas/progress.ts';
import { target } from '../../src/lib/server/audit/audit.ts';
import { listMetrics, updateMetric } from '../../src/lib/server/content/progress.ts';
import { fixedRecordsHandler } from '../../src/lib/server/content/fixed-records.ts';
import { CACHE_TAGS } from '../../src/lib/server/content/responses.ts';

/** Campaign metrics: fixed records, listed by any staff member and updated with edit_metrics (audited). */
export default fixedRecordsHandler({
  names: { list: 'metrics', one: 'metric' },
  list: listMetrics,
  schema: MetricUpdateSchema,
  update: (id, input) => updateMetric(id, input),
  permission: 'edit_metrics',
  tag: CACHE_TAGS.metrics,
  audit: { kind: 'metric.update', target: target.metric },
});

export const config: Config = { path: ['/api/admin/metrics', '/api/admin/metrics/:id'] };
