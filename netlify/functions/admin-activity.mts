import type { Config, Context } from '@netlify/functions';
import { AuditQuerySchema, type AuditQuery } from '../../src/lib/schemas/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit, auditCsv, auditPage, verifyChain } from '../../src/lib/server/audit/audit.ts';
import { flushRefusedSignIns } from '../../src/lib/server/audit/refused-sign-ins.ts';
import { allowMethods, download, handle, json } from '../../src/lib/server/http.ts';
import { zodToHttp } from '../../src/lib/server/errors.ts';

/** The filters an export used, for its own entry. */
const exportFilters = (q: AuditQuery): Record<string, string> =>
  Object.fromEntries(
    (['actor', 'kind', 'from', 'to'] as const).flatMap((k) =>
      q[k] === undefined ? [] : [[k, String(q[k])]],
    ),
  );

/**
 * The audit trail, admin only and read only (docs/decisions/033-audit-trail.md): there is no method
 * here, or anywhere, that edits or deletes an entry (an export only appends its
 * own record, as every staff action does). Pages and the CSV
 * read the chain itself and leave out entries that fail their check
 * (docs/decisions/073-audit-anchors.md).
 * - GET /api/admin/activity?actor=&kind=&from=&to=&page=&pageSize=  newest first
 * - GET /api/admin/activity?format=csv&...                            every matching entry
 * - GET /api/admin/activity/verify                                    recompute the hash chain
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET');
  const user = await requireUser(req, { permission: 'view_audit' });
  // Closed windows of refused sign-ins become entries before anything is read.
  await flushRefusedSignIns();
  const url = new URL(req.url);
  if (url.pathname.replace(/\/$/, '').endsWith('/verify')) return json(await verifyChain());
  const raw = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ''));
  const parsed = AuditQuerySchema.safeParse(raw);
  if (!parsed.success) throw zodToHttp(parsed.error);
  if (parsed.data.format === 'csv') {
    const { filename, body } = await auditCsv(parsed.data);
    await audit(context, user, 'audit.export', null, exportFilters(parsed.data));
    return download(body, filename, 'text/csv; charset=utf-8');
  }
  return json(await auditPage(parsed.data));
});

export const config: Config = { path: ['/api/admin/activity', '/api/admin/activity/verify'] };
