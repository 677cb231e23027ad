import type { Config, Context } from '@netlify/functions';
import { AuditQuerySchema } from '../../src/lib/schemas/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { checkStep, REQUEST_STEP } from '../../src/lib/server/audit/checkpoint.ts';
import { verificationStatus } from '../../src/lib/server/audit/verification.ts';
import { flushRefusedSignIns } from '../../src/lib/server/audit/refused-sign-ins.ts';
import { directExport } from '../../src/lib/server/exports/exports.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { zodToHttp } from '../../src/lib/server/errors.ts';

/**
 * The audit trail, admin only and read only (docs/decisions/154-audit-trail.md): there is no method
 * here, or anywhere, that edits or deletes an entry (an export only appends its
 * own record, as every staff action does). Pages and the CSV
 * read the chain itself and leave out entries that fail their check
 * (docs/decisions/154-audit-trail.md).
 * - GET /api/admin/activity?actor=&kind=&from=&to=&page=&pageSize=  newest first
 * - GET /api/admin/activity?format=csv&...                            every matching entry, up to
 *   EXPORT_LIMITS.directRows (else 413: the `activity` export, docs/decisions/156-exports.md)
 * - GET /api/admin/activity/verify           one step of the incremental check, and the full verification's state
 * - GET /api/admin/activity/verify?full      the full verification's state only
 *   (the full verification itself: admin-activity-verification.mts, a background function)
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET');
  const user = await requireUser(req, { permission: 'view_audit' });
  // Closed windows of refused sign-ins become entries before anything is read.
  await flushRefusedSignIns();
  const url = new URL(req.url);
  if (url.pathname.replace(/\/$/, '').endsWith('/verify')) {
    if (url.searchParams.has('full')) return json({ full: await verificationStatus() });
    const [step, full] = await Promise.all([checkStep(REQUEST_STEP), verificationStatus()]);
    return json({ ...step, full });
  }
  const raw = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ''));
  const parsed = AuditQuerySchema.safeParse(raw);
  if (!parsed.success) throw zodToHttp(parsed.error);
  if (parsed.data.format === 'csv') {
    const { format: _f, page: _p, pageSize: _s, ...filters } = raw;
    return directExport(user, context, 'activity', filters);
  }
  return json(await auditPage(parsed.data));
});

export const config: Config = { path: ['/api/admin/activity', '/api/admin/activity/verify'] };
