import { DEFAULT_LANG, isLang } from '../../lang.ts';
import { suppress, validUnsubscribeToken } from '../messaging/email-guard.ts';
import { HttpError } from '../errors.ts';
import { readText, respond } from '../http.ts';

/**
 * POST /api/unsubscribe (docs/decisions/167-email-and-newsletter.md): the address hash `u`
 * and its HMAC `t`, in the query (RFC 8058 one-click: the mail client posts
 * `List-Unsubscribe=One-Click` to the List-Unsubscribe URL) or in the form the unsubscribe page posts
 * (no script needed). The opt-out is recorded at once; the page's post lands on the done page in its
 * language, the one-click post gets a short 200. No same-origin check: the HMAC is the authority, and a
 * mail provider's post comes from nowhere in particular.
 */
export async function handleUnsubscribe(req: Request): Promise<Response> {
  const type = req.headers.get('content-type') ?? '';
  const body = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)
    ? new URLSearchParams(await readText(req, 4096))
    : new URLSearchParams();
  const q = new URL(req.url).searchParams;
  const u = body.get('u') ?? q.get('u') ?? '';
  const t = body.get('t') ?? q.get('t') ?? '';
  const langField = body.get('lang');
  const lang = isLang(langField) ? langField : DEFAULT_LANG;
  if (!validUnsubscribeToken(u, t))
    throw new HttpError(400, 'This unsubscribe link is not valid. Please use the link in the latest email.');
  await suppress(u, 'unsubscribed', body.get('List-Unsubscribe') === 'One-Click' ? 'one_click' : 'page');
  if (body.get('List-Unsubscribe') === 'One-Click')
    return respond('Unsubscribed', { type: 'text/plain; charset=utf-8' });
  return respond(null, {
    status: 303,
    headers: { Location: `${lang === DEFAULT_LANG ? '' : `/${lang}`}/unsubscribe/done` },
  });
}
