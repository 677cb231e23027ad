import type { Config, Context } from '@netlify/functions';
import { LoginSchema } from '../../src/lib/schemas/user.ts';
import { login } from '../../src/lib/server/auth/login.ts';
import { createSessionCookie } from '../../src/lib/server/auth/session.ts';
import { toPublicUser } from '../../src/lib/server/auth/users.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readJson,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const input = await readJson(req, LoginSchema, 8 * 1024);
  const user = await login(input, clientIp(context));
  return json(
    { role: user.role, user: toPublicUser(user) },
    { headers: { 'Set-Cookie': await createSessionCookie(user) } },
  );
});

export const config: Config = { path: '/api/auth/login' };
