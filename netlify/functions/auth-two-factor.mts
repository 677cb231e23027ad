import type { Config, Context } from '@netlify/functions';
import {
  SecondFactorSchema,
  TWO_FACTOR_MESSAGES,
  TwoFactorDisableSchema,
  TwoFactorEnableSchema,
} from '../../src/lib/schemas/two-factor.ts';
import { verifyPassword } from '../../src/lib/server/auth/passwords.ts';
import { createSessionCookie, requireUser } from '../../src/lib/server/auth/session.ts';
import {
  checkSecondFactor,
  confirmEnrolment,
  getPolicy,
  isRequiredFor,
  pendingSignInUser,
  removeFactor,
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
 * Two-factor sign-in (issue 11):
 * - GET  /api/auth/two-factor          own status
 * - POST /api/auth/two-factor/verify   the code step of a sign-in (pending-sign-in cookie, no session yet)
 * - POST /api/auth/two-factor/setup    a new secret to scan (QR) or type
 * - POST /api/auth/two-factor/enable   confirm with a first code; answers the recovery codes once
 * - POST /api/auth/two-factor/disable  current password and a code
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
  if (action === 'enable') {
    const { code } = await readJson(req, TwoFactorEnableSchema, 4 * 1024);
    const recoveryCodes = await confirmEnrolment(user, code);
    await audit(context, user, 'auth.two_factor_enable');
    return json({ recoveryCodes, status: await twoFactorStatus(user) });
  }
  if (action === 'disable') {
    const input = await readJson(req, TwoFactorDisableSchema, 4 * 1024);
    if (isRequiredFor(user, await getPolicy()))
      throw new HttpError(409, TWO_FACTOR_MESSAGES.requiredCannotDisable);
    if (!(await verifyPassword(user.passwordHash, input.password)))
      throw new HttpError(400, 'Current password is incorrect', { fields: { password: 'Incorrect' } });
    if (!(await checkSecondFactor(user, input, clientIp(context))))
      throw new HttpError(400, TWO_FACTOR_MESSAGES.invalidCode, {
        fields: { code: TWO_FACTOR_MESSAGES.invalidCode },
      });
    const updated = await removeFactor(user.id);
    await audit(context, updated, 'auth.two_factor_disable');
    // Every session was signed out; this one continues with a fresh cookie.
    return json({ success: true }, { headers: { 'Set-Cookie': await createSessionCookie(updated) } });
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
  ],
};
