import type { Config } from '@netlify/functions';
import { handle, json } from '../../src/lib/server/http.ts';
import { foldActivity } from '../../src/lib/server/activity/counts.ts';

/**
 * Scheduled (every minute): folds what supporters did since the last run into the Overview's daily rollups
 * (docs/decisions/180-overview.md). Safe to be killed at any point and to run twice at once. Netlify invokes it
 * with a POST; it has no public URL.
 */
export default handle(async () => {
  const run = await foldActivity();
  console.info(`[overview-rollup] ${JSON.stringify(run)}`);
  return json(run);
});

export const config: Config = { schedule: '* * * * *' };
