import { refcodeToken } from '../../schemas/overview.ts';
import { appSettings } from '../app-env.ts';

/**
 * The campaign link's refcode a public form's post came from (docs/decisions/180-overview.md, "Refcodes"): the
 * `refcode` query parameter of the page the form was on, as the browser names it in the post's Referer (the site
 * sends `strict-origin-when-cross-origin`, so a same-origin post, a form post without JavaScript or a script's
 * fetch alike, carries the page's full address, query included; static pages need no server rendering and no
 * script for it). A form whose schema keeps a `refcode` field is read first. Anything but a short token
 * ([A-Za-z0-9_-]{1,40}) is dropped: the value is never stored, shown or exported raw.
 */
export function refcodeOfPost(req: Request, input: unknown): string | null {
  const field = input && typeof input === 'object' ? (input as Record<string, unknown>).refcode : undefined;
  const own = refcodeToken(field);
  if (own) return own;
  const referer = req.headers.get('referer');
  if (!referer) return null;
  let page: URL;
  try {
    page = new URL(referer);
  } catch {
    return null;
  }
  // Only the site's own pages: another site's address names no campaign link of ours.
  if (page.origin !== new URL(req.url).origin && page.origin !== new URL(appSettings().SITE_URL).origin)
    return null;
  return refcodeToken(page.searchParams.get('refcode'));
}
