import type { Config, Context } from '@netlify/functions';
import { ResetPasswordSchema } from '../../src/lib/schemas/user.ts';
import { resetPassword } from '../../src/lib/server/auth/recovery.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, handle, json, readInput, requireSameOrigin } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  try {
    const user = await resetPassword(await readInput(req, 'reset-password', ResetPasswordSchema, 4 * 1024));
    await audit(context, user, 'auth.password_reset');
    return json({ success: true });
  } catch (err) {
    if (err instanceof HttpError)
      throw new HttpError(err.status, err.message, { success: false, ...err.extra }, err.headers);
    throw err;
  }
});

export const config: Config = { path: '/api/auth/reset-password' };
