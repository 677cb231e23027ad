import type { Config, Context } from '@netlify/functions';
import { ChangePasswordSchema } from '../../src/lib/schemas/user.ts';
import { hashPassword } from '../../src/lib/server/auth/passwords.ts';
import { assertStrongPassword } from '../../src/lib/server/auth/password-strength.ts';
import { reauthenticate } from '../../src/lib/server/auth/reauth.ts';
import { notifyPasswordChanged } from '../../src/lib/server/auth/recovery.ts';
import { createSessionCookie, requireUser } from '../../src/lib/server/auth/session.ts';
import { changeUser, toPublicUser, withNewPassword } from '../../src/lib/server/auth/users.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/**
 * The signed-in user's own password. Revokes every other session; this one gets a fresh cookie.
 * The current password (and, with two-factor on, a code) is checked against the sign-in lockout:
 * docs/decisions/160-staff-sign-in-and-sessions.md.
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  const user = await requireUser(req, { allowPasswordChangePending: true });
  const { currentPassword, newPassword, code, recoveryCode } = await readJson(
    req,
    ChangePasswordSchema,
    4 * 1024,
  );
  // Right after a temporary-password sign-in the old password is unknown and the temporary one is spent:
  // that sign-in (with its own lockout, and the second factor when on) is the proof.
  if (!user.mustChangePassword) {
    if (!currentPassword)
      throw new HttpError(400, 'Please fill in all fields', { fields: { currentPassword: 'Required' } });
    const method = await reauthenticate(
      user,
      { password: currentPassword, code, recoveryCode },
      {
        passwordField: 'currentPassword',
        onLockout: () => audit(context, user, 'auth.reauth_locked', null, { during: 'password change' }),
      },
    );
    if (method === 'recovery') await audit(context, user, 'auth.recovery_code_used');
  }
  await assertStrongPassword(newPassword, user, 'newPassword');
  const passwordHash = await hashPassword(newPassword);
  // Every session, reset link and temporary password issued before dies with the old password.
  const updated = await changeUser(user.id, (u) =>
    withNewPassword(u, { passwordHash, mustChangePassword: false }),
  );
  await notifyPasswordChanged(updated.email, updated.firstName || updated.username);
  await audit(context, updated, 'auth.password_change');
  return json(
    { success: true, user: toPublicUser(updated) },
    { headers: { 'Set-Cookie': await createSessionCookie(updated) } },
  );
});

export const config: Config = { path: '/api/auth/change-password' };
