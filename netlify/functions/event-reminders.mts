import type { Config } from '@netlify/functions';
import { runReminders } from '../../src/lib/server/events/reminders.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (hourly): day-before reminder emails and texts for RSVPs, inside
 * 9:00-20:00 campaign time and never to an opted-out number. Netlify invokes
 * it with a POST whose body carries `next_run`; it has no public URL.
 */
export default handle(async () => {
  const run = await runReminders(new Date());
  console.info(`[reminders] ${JSON.stringify(run)}`);
  return json(run);
});

export const config: Config = { schedule: '@hourly' };
