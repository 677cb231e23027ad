import type { Config, Context } from '@netlify/functions';
import { VolunteerSignupSchema } from '../../src/lib/schemas/forms.ts';
import { assertFormOpen } from '../../src/lib/server/election/open-forms.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
import { reserveFormPost } from '../../src/lib/server/forms/post-limits.ts';
import { submitVolunteer } from '../../src/lib/server/forms/submissions.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/** POST /api/volunteers-sendgrid: closed (410) once the campaign has ended; per-IP limit, phone country, captcha, store, then email the campaign (201 new, 200 identical repeat). */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  requireFormProviders({ captcha: true, email: true });
  const input = await readInput(req, 'volunteer', VolunteerSignupSchema, 16 * 1024);
  await assertFormOpen('volunteer');
  await reserveFormPost('volunteer', clientIp(context));
  const { created } = await submitVolunteer(input, {
    ip: clientIp(context),
    userAgent: req.headers.get('user-agent'),
  });
  return json({ success: true }, { status: created ? 201 : 200 });
});

export const config: Config = { path: '/api/volunteers-sendgrid' };
