import type { Config, Context } from '@netlify/functions';
import { EmailSubscriptionSchema } from '../../src/lib/schemas/forms.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
import { reserveFormPost } from '../../src/lib/server/forms/post-limits.ts';
import { subscribeEmail, SUBSCRIBE_PENDING } from '../../src/lib/server/forms/subscribers.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/**
 * POST /api/email-subscribers: the blog's newsletter box. Captcha, then the
 * address is kept as pending and a confirmation link is emailed
 * (docs/decisions/079-newsletter-double-opt-in.md). Every accepted post
 * answers 202 with the same message, whether the address was new, pending or
 * already subscribed.
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  requireFormProviders({ captcha: true, email: true });
  const input = await readInput(req, 'newsletter', EmailSubscriptionSchema, 4 * 1024);
  await reserveFormPost('newsletter', clientIp(context));
  await subscribeEmail(input, { ip: clientIp(context), userAgent: req.headers.get('user-agent') });
  return json({ message: SUBSCRIBE_PENDING.heading, description: SUBSCRIBE_PENDING.text }, { status: 202 });
});

export const config: Config = { path: '/api/email-subscribers' };
