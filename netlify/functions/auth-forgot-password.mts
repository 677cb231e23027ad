import type { Config, Context } from '@netlify/functions';
import { ForgotPasswordSchema } from '../../src/lib/schemas/user.ts';
import { requestPasswordReset } from '../../src/lib/server/auth/recovery.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  try {
    const input = await readInput(req, 'forgot-password', ForgotPasswordSchema, 4 * 1024);
    // The account-dependent work runs after the response (same time for every email).
    const defer = typeof context.waitUntil === 'function' ? context.waitUntil.bind(context) : undefined;
    const message = await requestPasswordReset(input, clientIp(context), new Date(), defer);
    return json({ success: true, message });
  } catch (err) {
    // This call's failures carry success: false (spec section 7).
    if (err instanceof HttpError)
      throw new HttpError(err.status, err.message, { success: false, ...err.extra }, err.headers);
    throw err;
  }
});

export const config: Config = { path: '/api/auth/forgot-password' };
