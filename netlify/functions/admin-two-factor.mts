import type { Config, Context } from '@netlify/functions';
import { TWO_FACTOR_MESSAGES, TwoFactorPolicySchema } from '../../src/lib/schemas/two-factor.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import {
  enrolledUserIds,
  getPolicy,
  isEnrolled,
  removeFactor,
  setPolicy,
} from '../../src/lib/server/auth/two-factor.ts';
import { getUser } from '../../src/lib/server/auth/users.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/**
 * Admin side of two-factor sign-in (docs/decisions/160-staff-sign-in-and-sessions.md), admin only:
 * - GET /api/admin/two-factor             the policy and who has enrolled
 * - PUT /api/admin/two-factor             set the policy
 * - DELETE /api/admin/users/:id/two-factor  reset another member's second factor (signs them out); never one's own
 */
export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  allowMethods(req, ...(hasId ? ['DELETE'] : ['GET', 'PUT']));
  const admin = await requireUser(req, { permission: 'manage_users' });
  if (hasId) {
    const id = idFrom(context);
    // One's own factor comes off only through Security, which checks the policy and re-authenticates
    // (docs/decisions/160-staff-sign-in-and-sessions.md); here a stolen admin session could skip both.
    if (id === admin.id) throw new HttpError(403, TWO_FACTOR_MESSAGES.ownResetRefused);
    const member = await getUser(id);
    if (!member) throw new HttpError(404, 'User not found');
    if (!(await isEnrolled(id))) throw new HttpError(409, 'This member has no second factor to reset');
    await removeFactor(id);
    await audit(context, admin, 'auth.two_factor_reset', target.user(member));
    return json({ success: true });
  }
  if (req.method === 'PUT') {
    const { before, after } = await setPolicy(await readJson(req, TwoFactorPolicySchema, 1024));
    await audit(context, admin, 'settings.two_factor_policy', null, {
      before: `admins ${before.requireForAdmins ? 'required' : 'optional'}, all staff ${before.requireForAllStaff ? 'required' : 'optional'}`,
      after: `admins ${after.requireForAdmins ? 'required' : 'optional'}, all staff ${after.requireForAllStaff ? 'required' : 'optional'}`,
    });
    return json({ policy: after, enrolled: await enrolledUserIds() });
  }
  return json({ policy: await getPolicy(), enrolled: await enrolledUserIds() });
});

export const config: Config = { path: ['/api/admin/two-factor', '/api/admin/users/:id/two-factor'] };
