import type { Config } from '@netlify/functions';
import { compactInbox } from '../../src/lib/server/inbox/summaries.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (every minute): folds the Inbox lists' outstanding summary segments into their
 * indexes, and continues the rebuild of an index that was lost (docs/decisions/155-inbox-and-staff-lists.md).
 * Bounded work per run; safe to be killed at any point and to run twice at once. Netlify
 * invokes it with a POST; it has no public URL.
 */
export default handle(async () => {
  const run = await compactInbox(Date.now() + 20_000);
  console.info(`[summary-compaction] ${JSON.stringify(run)}`);
  return json(run);
});

export const config: Config = { schedule: '* * * * *' };
