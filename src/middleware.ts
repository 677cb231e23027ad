import { defineMiddleware } from 'astro:middleware';
import { NO_REFERRER_PATHS, SECURITY_HEADERS, policyFor } from './lib/server/security-headers.ts';

/**
 * On-demand pages and routes (article, blog, volunteer, form outcomes, rss,
 * sitemap, events.ics, the server-rendered 404) are answered by a function, so
 * netlify.toml's header rules do not reach them: set the same security headers
 * here. Prerendered pages are left alone (their headers come from netlify.toml
 * and the adapter), except the not-found page, which is rendered through here
 * for every unknown path.
 *
 * ONE complete Content-Security-Policy per response (issue 9): a page keeps
 * the policy Astro built for it (its directives already include
 * frame-ancestors, object-src and base-uri, from src/lib/csp.mjs); a page
 * without one gets the full page policy; anything else (XML, calendar, text)
 * gets a policy that allows nothing. Never a second, partial header beside it.
 */

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
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
