import type { Config } from '@netlify/functions';
import { compactInbox } from '../../src/lib/server/inbox/summaries.ts';
import { compactPeople } from '../../src/lib/server/people/staff.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (every minute): folds the Inbox lists' and the People list's outstanding summary segments into their
 * indexes and writes each index's bundle, and continues the rebuild of an index that was lost
 * (docs/decisions/155-inbox-and-staff-lists.md, docs/decisions/149-people.md).
 * Bounded work per run; safe to be killed at any point and to run twice at once. Netlify
 * invokes it with a POST; it has no public URL.
 */
export default handle(async () => {
  const deadline = Date.now() + 20_000;
  const run = { ...(await compactInbox(deadline)), people: await compactPeople(deadline) };
  console.info(`[summary-compaction] ${JSON.stringify(run)}`);
  return json(run);
});

export const config: Config = { schedule: '* * * * *' };
