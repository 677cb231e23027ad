import type { Config, Context } from '@netlify/functions';
import { isLang, type Lang } from '../../src/lib/lang.ts';
import { allowMethods, clientIp, handle, json, requireSameOrigin } from '../../src/lib/server/http.ts';
import { myPage, readMyInput } from '../../src/lib/server/supporters/request.ts';
import { codePhone, requestTextCode } from '../../src/lib/server/supporters/text-code.ts';

/**
 * POST /api/my/code {phone, lang}: a 6-digit sign-in code by text to a supporter's own page
 * (docs/decisions/182-supporter-page.md). The same answer, status and time whatever the number: the look-up, the
 * code and the text run after the response. The code is entered at POST /api/my/code-session.
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const { input, formPost } = await readMyInput(req, 4 * 1024);
  const lang: Lang = isLang(input.lang) ? input.lang : 'en';
  const phone = codePhone(input.phone, lang);
  const defer = typeof context.waitUntil === 'function' ? context.waitUntil.bind(context) : undefined;
  const message = await requestTextCode(phone, lang, clientIp(context), new Date(), defer);
  if (formPost) return myPage(lang, 'code-sent');
  return json({ success: true, message });
});

export const config: Config = { path: '/api/my/code' };
