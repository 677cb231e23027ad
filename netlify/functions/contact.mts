import type { Config, Context } from '@netlify/functions';
import { ContactMessageSchema } from '../../src/lib/schemas/forms.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
import { reserveFormPost } from '../../src/lib/server/forms/post-limits.ts';
import { submitContact } from '../../src/lib/server/forms/submissions.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/** POST /api/contact: per-IP limit, phone country, captcha, store, then email the campaign inbox. */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  requireFormProviders({ captcha: true, email: true });
  const input = await readInput(req, 'contact', ContactMessageSchema, 32 * 1024);
  await reserveFormPost('contact', clientIp(context));
  await submitContact(input, { ip: clientIp(context), userAgent: req.headers.get('user-agent') });
  return json({ success: true }, { status: 201 });
});

export const config: Config = { path: '/api/contact' };
