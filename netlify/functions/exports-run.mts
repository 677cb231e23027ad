import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { runExport } from '../../src/lib/server/exports/exports.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/** What the export endpoint sends: the job and the token that lets this function run it (never stored). */
const RunSchema = z.strictObject({
  id: z.string().regex(/^[a-f0-9]{32}$/),
  token: z.string().min(20).max(100),
});

/**
 * The background half of a large staff export (docs/decisions/156-exports.md):
 * Netlify answers the caller 202 at once and runs this for up to 15 minutes. It runs only
 * a stored job, with the job's own run token; a job done, failed or run by a live worker
 * is left alone, so a retried or duplicated call writes nothing twice.
 */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  const { id, token } = await readJson(req, RunSchema);
  const job = await runExport(id, token);
  return json({ status: job.status, rows: job.rows });
});

export const config: Config = { path: '/api/exports/run', background: true };
