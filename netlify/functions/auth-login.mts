import type { Config, Context } from '@netlify/functions';
import { LoginSchema } from '../../src/lib/schemas/user.ts';
import { login } from '../../src/lib/server/auth/login.ts';
import { createSessionCookie } from '../../src/lib/server/auth/session.ts';
import { isEnrolled, pendingSignInCookie } from '../../src/lib/server/auth/two-factor.ts';
import { toPublicUser, type StoredUser } from '../../src/lib/server/auth/users.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { recordRefusedSignIn } from '../../src/lib/server/audit/refused-sign-ins.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readJson,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const input = await readJson(req, LoginSchema, 8 * 1024);
  let user: StoredUser;
  try {
    user = await login(input, clientIp(context));
  } catch (err) {
    // Aggregated per source and window, the typed name kept only in a sanitised form
    // (docs/decisions/154-audit-trail.md).
    if (err instanceof HttpError && (err.status === 401 || err.status === 429))
      await recordRefusedSignIn(clientIp(context), input.username, err.status);
    throw err;
  }
  // With two-factor on, the password only opens the code step (POST /api/auth/two-factor/verify).
  if (await isEnrolled(user.id))
    return json({ twoFactorRequired: true }, { headers: { 'Set-Cookie': await pendingSignInCookie(user) } });
  await audit(
    context,
    user,
    'auth.sign_in',
    null,
    user.mustChangePassword ? { with: 'temporary password' } : {},
  );
  return json(
    { role: user.role, user: toPublicUser(user) },
    { headers: { 'Set-Cookie': await createSessionCookie(user) } },
  );
});

export const config: Config = { path: '/api/auth/login' };
