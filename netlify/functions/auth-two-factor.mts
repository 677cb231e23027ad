import type { Config, Context } from '@netlify/functions';
import {
  SecondFactorSchema,
  TWO_FACTOR_MESSAGES,
  TwoFactorDisableSchema,
  TwoFactorEnableSchema,
  TwoFactorReauthSchema,
} from '../../src/lib/schemas/two-factor.ts';
import { reauthenticate } from '../../src/lib/server/auth/reauth.ts';
import { createSessionCookie, requireUser } from '../../src/lib/server/auth/session.ts';
import {
  checkSecondFactor,
  confirmEnrolment,
  getPolicy,
  isEnrolled,
  isRequiredFor,
  pendingSignInUser,
  removeFactor,
  replaceRecoveryCodes,
  startEnrolment,
  twoFactorStatus,
} from '../../src/lib/server/auth/two-factor.ts';
import { changeUser, toPublicUser } from '../../src/lib/server/auth/users.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readJson,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/**
 * Two-factor sign-in (docs/decisions/160-staff-sign-in-and-sessions.md):
 * - GET  /api/auth/two-factor          own status
 * - POST /api/auth/two-factor/verify   the code step of a sign-in (pending-sign-in cookie, no session yet)
 * - POST /api/auth/two-factor/setup    a new secret to scan (QR) or type
 * - POST /api/auth/two-factor/enable   current password and a first code; answers the recovery codes once
 * - POST /api/auth/two-factor/disable  current password and a code
 * - POST /api/auth/two-factor/recovery-codes  current password and a code; ten new recovery codes, once
 */
export default handle(async (req: Request, context: Context) => {
  const action = new URL(req.url).pathname.replace(/\/$/, '').split('/').pop();
  if (action === 'two-factor') {
    allowMethods(req, 'GET');
    const user = await requireUser(req, { allowTwoFactorSetup: true });
    return json(await twoFactorStatus(user));
  }
  allowMethods(req, 'POST');
  if (action === 'verify') {
    requireSameOrigin(req);
    const user = await pendingSignInUser(req);
    const input = await readJson(req, SecondFactorSchema, 4 * 1024);
    const method = await checkSecondFactor(user, input, clientIp(context));
    if (!method) {
      await audit(context, user, 'auth.two_factor_failed');
      throw new HttpError(401, TWO_FACTOR_MESSAGES.invalidCode);
    }
    if (method === 'recovery') await audit(context, user, 'auth.recovery_code_used');
    const signedIn = await changeUser(user.id, (u) => ({ ...u, lastLogin: new Date().toISOString() }));
    await audit(context, signedIn, 'auth.sign_in', null, {
      with: method === 'totp' ? 'authenticator code' : 'recovery code',
    });
    // One Set-Cookie only (the dev server's function emulation keeps just one of several). The pending-sign-in
    // cookie is left to expire (5 minutes): it opens nothing but another code step.
    return json(
      { role: signedIn.role, user: toPublicUser(signedIn) },
      { headers: { 'Set-Cookie': await createSessionCookie(signedIn) } },
    );
  }
  const user = await requireUser(req, { allowTwoFactorSetup: true });
  if (action === 'setup') return json(await startEnrolment(user));
  // Every change below re-authenticates against the sign-in lockout (docs/decisions/160-staff-sign-in-and-sessions.md).
  const reauth = (input: { password: string; code?: string; recoveryCode?: string }, during: string) =>
    reauthenticate(user, input, {
      passwordField: 'password',
      onLockout: () => audit(context, user, 'auth.reauth_locked', null, { during }),
    });
  if (action === 'enable') {
    const { password, code } = await readJson(req, TwoFactorEnableSchema, 4 * 1024);
    // Not enrolled yet: the password alone (the code below proves the new app, not the person).
    await reauth({ password }, 'turning on two-factor');
    const enabled = await confirmEnrolment(user, code);
    await audit(context, enabled.user, 'auth.two_factor_enable');
    // Every other session was signed out (token version); this one continues with a fresh cookie.
    return json(
      { recoveryCodes: enabled.recoveryCodes, status: await twoFactorStatus(enabled.user) },
      { headers: { 'Set-Cookie': await createSessionCookie(enabled.user) } },
    );
  }
  if (action === 'disable') {
    const input = await readJson(req, TwoFactorDisableSchema, 4 * 1024);
    if (isRequiredFor(user, await getPolicy()))
      throw new HttpError(409, TWO_FACTOR_MESSAGES.requiredCannotDisable);
    const method = await reauth(input, 'turning off two-factor');
    if (!(await isEnrolled(user.id))) throw new HttpError(409, TWO_FACTOR_MESSAGES.alreadyOff);
    if (method === 'recovery') await audit(context, user, 'auth.recovery_code_used');
    const updated = await removeFactor(user.id);
    await audit(context, updated, 'auth.two_factor_disable');
    // Every session was signed out; this one continues with a fresh cookie.
    return json({ success: true }, { headers: { 'Set-Cookie': await createSessionCookie(updated) } });
  }
  if (action === 'recovery-codes') {
    const input = await readJson(req, TwoFactorReauthSchema, 4 * 1024);
    const method = await reauth(input, 'new recovery codes');
    if (method === 'recovery') await audit(context, user, 'auth.recovery_code_used');
    const recoveryCodes = await replaceRecoveryCodes(user.id); // 409 when two-factor is off
    await audit(context, user, 'auth.recovery_codes_new');
    return json({ recoveryCodes, status: await twoFactorStatus(user) });
  }
  throw new HttpError(404, 'Not found');
});

export const config: Config = {
  path: [
    '/api/auth/two-factor',
    '/api/auth/two-factor/verify',
    '/api/auth/two-factor/setup',
    '/api/auth/two-factor/enable',
    '/api/auth/two-factor/disable',
    '/api/auth/two-factor/recovery-codes',
  ],
};
