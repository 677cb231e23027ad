import type { Config, Context } from '@netlify/functions';
import { ExportRequestSchema } from '../../src/lib/schemas/exports.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { exportDownload, ownJob, startExport, viewOf } from '../../src/lib/server/exports/exports.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/**
 * Staff CSV exports of any size (docs/decisions/156-exports.md):
 * - POST /api/admin/exports {source, params}: starts one (audited); a small one is written
 *   at once, a large one by the background function; answers the job.
 * - GET /api/admin/exports/:id: its progress and, when done, signed links that expire.
 * - GET /api/admin/exports/:id/download?part&expires&sig: the file, for the member who
 *   started the export only.
 */
export default handle(async (req: Request, context: Context) => {
  const id = context.params?.id;
  const isDownload = new URL(req.url).pathname.endsWith('/download');
  allowMethods(req, ...(id === undefined ? ['POST'] : ['GET']));
  if (id === undefined) {
    const user = await requireUser(req);
    const job = await startExport(user, await readJson(req, ExportRequestSchema), context);
    return json({ job }, { status: job.status === 'done' ? 201 : 202 });
  }
  const user = await requireUser(req);
  if (isDownload) {
    const gzip = /\bgzip\b/.test(req.headers.get('accept-encoding') ?? '');
    return exportDownload(user, id, new URL(req.url).searchParams, gzip);
  }
  return json({ job: viewOf(await ownJob(user, id)) });
});

export const config: Config = {
  path: ['/api/admin/exports', '/api/admin/exports/:id', '/api/admin/exports/:id/download'],
};
