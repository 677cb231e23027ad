import type { Config, Context } from '@netlify/functions';
import { TextSignupSchema } from '../../src/lib/schemas/forms.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
import { signUpForTexts, TEXT_SIGNUP_OK } from '../../src/lib/server/forms/text-signups.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/** POST /api/newsletter: the text-message sign-up (201 new, 200 repeat; same message). */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  requireFormProviders({ sms: true });
  const input = await readInput(req, 'text-signup', TextSignupSchema, 8 * 1024);
  const result = await signUpForTexts(input, {
    ip: clientIp(context),
    userAgent: req.headers.get('user-agent'),
  });
  return json({ message: TEXT_SIGNUP_OK }, { status: result.created ? 201 : 200 });
});

export const config: Config = { path: '/api/newsletter' };
