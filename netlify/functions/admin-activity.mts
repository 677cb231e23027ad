import type { Config } from '@netlify/functions';
import { AuditQuerySchema } from '../../src/lib/schemas/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { auditCsv, auditPage, verifyChain } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, download, handle, json } from '../../src/lib/server/http.ts';
import { zodToHttp } from '../../src/lib/server/errors.ts';

/**
 * The audit trail, admin only and read only (issue 11): there is no method
 * here, or anywhere, that writes, edits or deletes an entry.
 * - GET /api/admin/activity?actor=&kind=&from=&to=&page=&pageSize=  newest first
 * - GET /api/admin/activity?format=csv&...                            every matching entry
 * - GET /api/admin/activity/verify                                    recompute the hash chain
 */
export default handle(async (req: Request) => {
  allowMethods(req, 'GET');
  await requireUser(req, { permission: 'view_audit' });
  const url = new URL(req.url);
  if (url.pathname.replace(/\/$/, '').endsWith('/verify')) return json(await verifyChain());
  const raw = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ''));
  const parsed = AuditQuerySchema.safeParse(raw);
  if (!parsed.success) throw zodToHttp(parsed.error);
  if (parsed.data.format === 'csv') {
    const { filename, body } = await auditCsv(parsed.data);
    return download(body, filename, 'text/csv; charset=utf-8');
  }
  return json(await auditPage(parsed.data));
});

export const config: Config = { path: ['/api/admin/activity', '/api/admin/activity/verify'] };
