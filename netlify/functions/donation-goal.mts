import type { Config } from '@netlify/functions';
import { PublicGoalResponseSchema } from '../../src/lib/schemas/donations.ts';
import { publicGoal } from '../../src/lib/server/donations/ledger.ts';
import { CACHE_TAGS, publicJson } from '../../src/lib/server/content/responses.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** GET /api/donations/goal: the public fundraising goal and what is raised toward it ({ goal: null } while off). */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  return publicJson(PublicGoalResponseSchema, await publicGoal(), CACHE_TAGS.donationGoal);
});

export const config: Config = { path: '/api/donations/goal' };
