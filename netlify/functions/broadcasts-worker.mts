import type { Config } from '@netlify/functions';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (every minute): the broadcast delivery job (docs/decisions/152-broadcasts.md),
 * stopping new work after 22 s so it ends well inside the 30 s limit. It has no public URL.
 */
export default handle(async () => {
  const report = await runBroadcasts({ deadline: Date.now() + 22_000 });
  console.info(`[broadcasts] ${JSON.stringify(report)}`);
  return json(report);
});

export const config: Config = { schedule: '* * * * *' };
