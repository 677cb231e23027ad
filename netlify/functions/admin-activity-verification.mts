import type { Config } from '@netlify/functions';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { runFullVerification } from '../../src/lib/server/audit/verification.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';

/** A background function runs 15 minutes at most: it stops in time to store its progress. */
const BUDGET_MS = 13 * 60_000;

/**
 * POST /api/admin/activity/verification (admin): starts the full verification of the audit trail, or
 * joins the one at work, as a background function (docs/decisions/154-audit-trail.md). Netlify
 * answers 202 at once and runs this for up to 15 minutes; progress is stored after every 1,000 entries,
 * so a run that is killed or runs out of time is taken over by the next one (a new request, or the
 * scheduled audit-checkpoint.mts). The Activity tab shows the progress
 * (GET /api/admin/activity/verify?full), with who started it. Like reading Activity, starting it changes
 * no record (it writes only its own progress), so it leaves no entry of its own.
 */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  const user = await requireUser(req, { permission: 'view_audit' });
  const full = await runFullVerification({ by: user.username, start: true, budgetMs: BUDGET_MS });
  return json({ full }, { status: 202 });
});

export const config: Config = { path: '/api/admin/activity/verification', background: true };
