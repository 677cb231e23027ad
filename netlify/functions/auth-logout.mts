import type { Config, Context } from '@netlify/functions';
import { clearSessionCookie, currentUser } from '../../src/lib/server/auth/session.ts';
import { changeUser } from '../../src/lib/server/auth/users.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, handle, json, requireSameOrigin } from '../../src/lib/server/http.ts';

/** Logout revokes every session of the user (token version bump), then clears the cookie. */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const user = await currentUser(req);
  if (user) await changeUser(user.id, (u) => ({ ...u, tokenVersion: u.tokenVersion + 1 }));
  if (user) await audit(context, user, 'auth.sign_out');
  return json({ success: true }, { headers: { 'Set-Cookie': clearSessionCookie() } });
});

export const config: Config = { path: '/api/auth/logout' };
