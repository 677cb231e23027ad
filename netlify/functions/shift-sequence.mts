import type { Config } from '@netlify/functions';
import { runShiftSequence } from '../../src/lib/server/events/shift-sequence.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (every 5 minutes): the shifts' confirm-and-remind sequence (docs/decisions/181-shifts.md, "The
 * sequence"): each due step to each person going on a slot, once, texts through the text guard. Netlify invokes it
 * with a POST whose body carries `next_run`; it has no public URL.
 */
export default handle(async () => {
  const run = await runShiftSequence(new Date());
  console.info(`[shift-sequence] ${JSON.stringify(run)}`);
  return json(run);
});

export const config: Config = { schedule: '*/5 * * * *' };
