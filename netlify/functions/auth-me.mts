import type { Config, Context } from '@netlify/functions';
import { currentUser } from '../../src/lib/server/auth/session.ts';
import { twoFactorStatus } from '../../src/lib/server/auth/two-factor.ts';
import { toPublicUser } from '../../src/lib/server/auth/users.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

export default handle(async (req: Request, _context: Context) => {
  allowMethods(req, 'GET');
  const user = await currentUser(req);
  if (!user) throw new HttpError(401, 'Authentication required');
  return json({ role: user.role, user: toPublicUser(user), twoFactor: await twoFactorStatus(user) });
});

export const config: Config = { path: '/api/auth/me' };
