import type { Config } from '@netlify/functions';
import { cleanExports } from '../../src/lib/server/exports/exports.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/**
 * Scheduled (hourly): deletes staff exports (their jobs and files) a day after they were
 * made (docs/decisions/156-exports.md). Netlify invokes it with a POST; it has no public URL.
 */
export default handle(async () => {
  const removed = await cleanExports(new Date());
  console.info(`[export-cleanup] removed ${removed}`);
  return json({ removed });
});

export const config: Config = { schedule: '@hourly' };
