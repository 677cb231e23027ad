import type { Config } from '@netlify/functions';
import { runPlanReminders } from '../../src/lib/server/vote-plans/reminders.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (every 15 minutes): plan-to-vote reminders that have fallen due, in bounded batches, each sent at most
 * once, texts through the text guard (docs/decisions/158-plan-to-vote.md). Netlify invokes it with a POST whose
 * body carries `next_run`; it has no public URL.
 */
export default handle(async () => {
  const run = await runPlanReminders(new Date());
  console.info(`[plan reminders] ${JSON.stringify(run)}`);
  return json(run);
});

export const config: Config = { schedule: '*/15 * * * *' };
