import type { Config, Context } from '@netlify/functions';
import { NewsletterConfirmSchema } from '../../src/lib/schemas/forms.ts';
import { CONFIRM_MESSAGES, confirmSubscription } from '../../src/lib/server/public-forms/subscribers.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/**
 * POST /api/email-subscribers/confirm {token}: the Confirm button of the page
 * the newsletter's confirmation link opens. 200 `confirmed` once, then
 * `already_confirmed`; 400 for an unknown or expired link
 * (docs/decisions/167-email-and-newsletter.md).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const { token } = await readInput(req, 'newsletter-confirm', NewsletterConfirmSchema, 1024);
  const status = await confirmSubscription(token, {
    ip: clientIp(context),
    userAgent: req.headers.get('user-agent'),
  });
  return json({ message: CONFIRM_MESSAGES[status], status });
});

export const config: Config = { path: '/api/email-subscribers/confirm' };
