import type { Config, Context } from '@netlify/functions';
import { RsvpInputSchema } from '../../src/lib/schemas/rsvp.ts';
import { verifyCaptcha } from '../../src/lib/server/adapters/captcha.ts';
import { availability, rsvp } from '../../src/lib/server/events/rsvp.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
import { assertPhoneAllowed } from '../../src/lib/server/texting/phone-policy.ts';
import { reserveFormPost } from '../../src/lib/server/forms/post-limits.ts';
import { reserveTextFromIp } from '../../src/lib/server/texting/text-limits.ts';
import {
  allowMethods,
  clientIp,
  handle,
  idFrom,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/**
 * GET /api/events/:id/rsvp: seats left and the waitlist (no personal data).
 * POST: an RSVP (captcha like the volunteer form): 201 going or waitlisted, a repeat answered alike
 * (docs/decisions/077-repeat-rsvp.md).
 * Before the captcha: the phone like every form's (country and number type, 400), this IP's
 * RSVPs per hour and, when a reminder text is asked for, its texts per hour (429 with
 * Retry-After; docs/decisions/081-form-post-limits.md, 080-text-guard.md).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'POST');
  const eventId = idFrom(context);
  if (req.method === 'GET') return json(await availability(eventId));
  requireSameOrigin(req);
  requireFormProviders({ captcha: true, email: true });
  const input = await readInput(req, 'rsvp', RsvpInputSchema, 8 * 1024);
  assertPhoneAllowed(input.phone);
  await reserveFormPost('rsvp', clientIp(context));
  if (input.smsReminder && input.phone) await reserveTextFromIp(clientIp(context));
  await verifyCaptcha(input.captchaResponse, clientIp(context));
  const result = await rsvp(eventId, input, {
    ip: clientIp(context),
    userAgent: req.headers.get('user-agent'),
  });
  return json(result, { status: 201 });
});

export const config: Config = { path: '/api/events/:id/rsvp' };
