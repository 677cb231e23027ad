import { defineMiddleware } from 'astro:middleware';
import { policyFor } from './lib/server/page-policy.ts';
import { hoistIslandStyles, NO_REFERRER_PATHS, SECURITY_HEADERS } from './lib/server/security-headers.ts';

/**
 * On-demand pages and routes (article, blog, volunteer, form outcomes, rss,
 * sitemap, events.ics, the server-rendered 404) are answered by a function, so
 * netlify.toml's header rules do not reach them: set the same security headers
 * here. Prerendered pages are left alone (their headers come from netlify.toml
 * and the adapter), except the not-found page, which is rendered through here
 * for every unknown path.
 *
 * ONE complete Content-Security-Policy per response (docs/decisions/159-public-forms.md): a page keeps
 * the policy Astro built for it (its directives already include
 * frame-ancestors, object-src and base-uri, from src/lib/csp.mjs); a page
 * without one gets the full page policy; anything else (XML, calendar, text)
 * gets a policy that allows nothing. Never a second, partial header beside it.
 */

/**
 * Astro writes `<style>astro-island,...{display:contents}</style>` into the
 * <body> before a page's first island; HTML allows <style> only in <head>
 * (the Nu Html Checker flags it). Moved to the head here, for prerendered
 * pages at build time and for on-demand pages per request.
 */
async function withIslandStylesInHead(response: Response): Promise<Response> {
  if (!/^text\/html\b/i.test(response.headers.get('content-type') ?? '') || !response.body) return response;
  const html = await response.text();
  const moved = hoistIslandStyles(html);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(moved, { status: response.status, statusText: response.statusText, headers });
}

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await withIslandStylesInHead(await next());
  if (context.isPrerendered && response.status !== 404) return response;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (name !== 'Content-Security-Policy' && !response.headers.has(name)) response.headers.set(name, value);
  }
  const type = response.headers.get('content-type') ?? '';
  const policy = policyFor(type, response.headers.get('content-security-policy'), {
    dev: import.meta.env.DEV,
    env: import.meta.env,
  });
  if (policy) response.headers.set('Content-Security-Policy', policy);
  // Pages are UTF-8; say so in the header, not only in the <meta charset>.
  if (/^text\/html\s*$/i.test(type)) response.headers.set('Content-Type', 'text/html; charset=utf-8');
  if (NO_REFERRER_PATHS.includes(context.url.pathname))
    response.headers.set('Referrer-Policy', 'no-referrer');
  return response;
});
