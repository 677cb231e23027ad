import type { Config, Context } from '@netlify/functions';
import { RsvpInputSchema } from '../../src/lib/schemas/rsvp.ts';
import { verifyCaptcha } from '../../src/lib/server/adapters/captcha.ts';
import { availability, rsvp } from '../../src/lib/server/events/rsvp.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
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
 * (docs/decisions/new-h5-repeat-rsvp.md).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'POST');
  const eventId = idFrom(context);
  if (req.method === 'GET') return json(await availability(eventId));
  requireSameOrigin(req);
  requireFormProviders({ captcha: true, email: true });
  const input = await readInput(req, 'rsvp', RsvpInputSchema, 8 * 1024);
  await verifyCaptcha(input.captchaResponse, clientIp(context));
  const result = await rsvp(eventId, input, {
    ip: clientIp(context),
    userAgent: req.headers.get('user-agent'),
  });
  return json(result, { status: 201 });
});

export const config: Config = { path: '/api/events/:id/rsvp' };
