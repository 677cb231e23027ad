import type { Config, Context } from '@netlify/functions';
import { EmailSubscriptionSchema } from '../../src/lib/schemas/forms.ts';
import { subscribeEmail, SUBSCRIBED_OK } from '../../src/lib/server/forms/subscribers.ts';
import { reserveFormPost } from '../../src/lib/server/forms/post-limits.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/** POST /api/email-subscribers: the blog's newsletter box (201 new address, 200 known one; same message). */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const input = await readInput(req, 'newsletter', EmailSubscriptionSchema, 4 * 1024);
  await reserveFormPost('newsletter', clientIp(context));
  const { created } = await subscribeEmail(input, {
    ip: clientIp(context),
    userAgent: req.headers.get('user-agent'),
  });
  return json({ message: SUBSCRIBED_OK }, { status: created ? 201 : 200 });
});

export const config: Config = { path: '/api/email-subscribers' };
