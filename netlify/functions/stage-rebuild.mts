import type { Config } from '@netlify/functions';
import { checkStage } from '../../src/lib/server/election/rebuild.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (every 5 minutes): rebuilds the static pages when the election's stage has changed since the last
 * build, or the calendar was edited (docs/decisions/157-election-calendar.md). Netlify invokes it with a POST; it
 * has no public URL.
 */
export default handle(async () => {
  const run = await checkStage(new Date());
  console.info(`[stage-rebuild] ${JSON.stringify(run)}`);
  return json(run);
});

export const config: Config = { schedule: '*/5 * * * *' };
