import type { Config, Context } from '@netlify/functions';
import { TextSignupSchema } from '../../src/lib/schemas/forms.ts';
import { assertFormOpen } from '../../src/lib/server/election/open-forms.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
import { browserFormPost } from '../../src/lib/server/form-post.ts';
import {
  submitTextSignup,
  TEXT_SIGNUP_OK,
  TEXT_SIGNUP_OPTED_OUT,
} from '../../src/lib/server/forms/text-signups.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/**
 * POST /api/newsletter: the text-message sign-up. 201 new, 200 repeat (same
 * message); 200 with `status: 'opted_out'` and the START instructions for a
 * number that replied STOP; 429 with Retry-After past a limit; 410 once the campaign has ended
 * (docs/decisions/113-post-election-modes.md).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  requireFormProviders({ sms: true, captcha: true });
  const input = await readInput(req, 'text-signup', TextSignupSchema, 8 * 1024);
  await assertFormOpen('text-signup');
  const result = await submitTextSignup(input, {
    formPost: browserFormPost(req) !== null,
    ip: clientIp(context),
    userAgent: req.headers.get('user-agent'),
  });
  if (result.outcome === 'opted_out') return json({ message: TEXT_SIGNUP_OPTED_OUT, status: 'opted_out' });
  return json({ message: TEXT_SIGNUP_OK, status: 'subscribed' }, { status: result.created ? 201 : 200 });
});

export const config: Config = { path: '/api/newsletter' };
