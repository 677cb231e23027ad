import { defineMiddleware } from 'astro:middleware';
import { NO_REFERRER_PATHS, SECURITY_HEADERS } from './lib/server/security-headers.ts';

/**
 * On-demand pages and routes (article, rss, sitemap, events.ics) are answered
 * by a function, so netlify.toml's header rules do not reach them: set the same
 * security headers here. Prerendered pages are left alone (their headers come
 * from netlify.toml and the adapter), except the not-found page, which the dev
 * server renders through here for every unknown path.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered && response.status !== 404) return response;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    // A page's own stricter policy (Astro's CSP) is kept; ours is added beside it.
    if (name === 'Content-Security-Policy' && response.headers.has(name))
      response.headers.append(name, value);
    else if (!response.headers.has(name)) response.headers.set(name, value);
  }
  if (NO_REFERRER_PATHS.includes(context.url.pathname))
    response.headers.set('Referrer-Policy', 'no-referrer');
  return response;
});
