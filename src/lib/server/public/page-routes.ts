import type { AstroGlobal } from 'astro';
import { copyFor } from '../../../content/copy.ts';
import type { Lang } from '../../lang.ts';
import { localizedPath } from '../../lang-paths.ts';
import { NEWSLETTER_TOKEN, PUBLIC_FORMS } from '../../schemas/public-forms.ts';
import { loadArchive, loadRefused, type ArchiveData, type RefusedData } from './page-data.ts';

/*
 * The on-demand pages that exist in both languages (src/pages/... and
 * src/pages/es/...): each route file is the page's language and its
 * component; what the route answers instead of the page (a redirect, a 404, a
 * 503) is decided here once for both.
 */

type RouteContext = Pick<AstroGlobal, 'response' | 'params' | 'url' | 'redirect'>;

/** /blog/page/N: the archive page's data, or a 301 to /blog (page 1) or a 503 when the store cannot be read. */
export async function archiveRoute(
  astro: RouteContext,
  lang: Lang,
): Promise<Response | Extract<ArchiveData, { kind: 'page' }>> {
  const data = await loadArchive(astro.response, astro.params.page ?? '', lang);
  if (data.kind === 'redirect') return astro.redirect(localizedPath('/blog', lang), 301);
  if (data.kind === 'unavailable') {
    return new Response(copyFor(lang).pages.blogCopy.unavailable, {
      status: 503,
      headers: {
        'Retry-After': '30',
        'Cache-Control': 'no-store',
        'Content-Type': 'text/plain; charset=utf-8',
      },
    });
  }
  return data;
}

/**
 * /forms/<form>?outcome=<id>: a refused browser form post's page, or a 404
 * (no such form), or a 303 to the form itself when there is nothing to show.
 */
export async function refusedRoute(
  astro: RouteContext,
  lang: Lang,
): Promise<Response | Extract<RefusedData, { kind: 'page' }>> {
  const refused = copyFor(lang).forms.refusedCopy;
  const data = await loadRefused(
    astro.response,
    astro.params.form ?? '',
    astro.url.searchParams,
    refused,
    lang,
  );
  if (data.kind === 'not-found') return new Response(null, { status: 404 });
  if (data.kind === 'form-page')
    return astro.redirect(localizedPath(PUBLIC_FORMS[data.form].page, lang), 303);
  return data;
}

/**
 * /newsletter/confirm?token=...: the token when it is well formed, else null
 * (the page then says the link is invalid, answered 400). Never cached: the
 * token is in the address. Whether the token is known is the Confirm button's
 * POST to say; opening the page reads and changes nothing
 * (docs/decisions/167-email-and-newsletter.md).
 */
export function newsletterConfirmRoute(astro: Pick<AstroGlobal, 'response' | 'url'>): string | null {
  astro.response.headers.set('Cache-Control', 'no-store');
  const token = astro.url.searchParams.get('token') ?? '';
  if (NEWSLETTER_TOKEN.test(token)) return token;
  astro.response.status = 400;
  return null;
}

/**
 * The unsubscribe page's link (docs/decisions/167-email-and-newsletter.md): the address hash
 * and its proof when well formed (checked for real when the button posts), else a 400 page. Never cached.
 */
export function unsubscribeRoute(
  astro: Pick<AstroGlobal, 'response' | 'url'>,
): { u: string; t: string } | null {
  astro.response.headers.set('Cache-Control', 'no-store');
  const u = astro.url.searchParams.get('u') ?? '';
  const t = astro.url.searchParams.get('t') ?? '';
  if (/^[a-f0-9]{64}$/.test(u) && /^[A-Za-z0-9_-]{43}$/.test(t)) return { u, t };
  astro.response.status = 400;
  return null;
}
