import type { Config } from '@netlify/functions';
import { campaignProgress } from '../../src/lib/server/content/progress-public.ts';
import { PROGRESS_PROJECTION } from '../../src/lib/schemas/public-projections.ts';
import { CACHE_TAGS, publicJson } from '../../src/lib/server/content/responses.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** Public progress figures: metrics, weekly volunteer goals, milestones. */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  return publicJson(PROGRESS_PROJECTION, await campaignProgress(), CACHE_TAGS.metrics);
});

export const config: Config = { path: '/api/campaign-metrics' };
