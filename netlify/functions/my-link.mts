import type { Config, Context } from '@netlify/functions';
import { z } from 'zod';
import { isLang, type Lang } from '../../src/lib/lang.ts';
import { email } from '../../src/lib/schemas/fields.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import { allowMethods, clientIp, handle, json, requireSameOrigin } from '../../src/lib/server/http.ts';
import { requestSigninLink } from '../../src/lib/server/supporters/signin.ts';
import { myPage, readMyInput } from '../../src/lib/server/supporters/request.ts';

/**
 * POST /api/my/link {email, lang}: a sign-in link to a supporter's own page (docs/decisions/182-supporter-page.md).
 * The same answer, status and time whatever the address: the look-up and the email run after the response.
 */
const LinkSchema = z.object({ email, lang: z.string().optional() });

export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const { input, formPost } = await readMyInput(req, 4 * 1024);
  const lang: Lang = isLang(input.lang) ? input.lang : 'en';
  const parsed = LinkSchema.safeParse(input);
  if (!parsed.success) throw new HttpError(400, 'Please enter a valid email address');
  const defer = typeof context.waitUntil === 'function' ? context.waitUntil.bind(context) : undefined;
  const message = await requestSigninLink(parsed.data.email, lang, clientIp(context), new Date(), defer);
  if (formPost) return myPage(lang, 'sent');
  return json({ success: true, message });
});

export const config: Config = { path: '/api/my/link' };
