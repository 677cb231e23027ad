/**
 * Development only (`astro dev`): `/about/` answers 301 to `/about`, as the deployed site does
 * (docs/decisions/162-public-pages-and-performance.md). Astro's dev server answers any path with a
 * trailing slash 404 under `trailingSlash: 'never'` (a page explaining the setting) before the
 * site's middleware sees it; this middleware is put in front of Astro's.
 */
import type { Connect, Plugin } from 'vite';
import { canonicalPath, redirectStatus } from '../lib/trailing-slash.mts';

export function trailingSlashMiddleware(): Connect.NextHandleFunction {
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const canonical = canonicalPath(url.pathname);
    if (!canonical) return next();
    res.statusCode = redirectStatus(req.method ?? 'GET');
    res.setHeader('Location', `${canonical}${url.search}`);
    res.setHeader('Cache-Control', 'no-store');
    res.end();
  };
}

export function trailingSlashRedirects(): Plugin {
  return {
    name: 'campaign:trailing-slash-redirects',
    apply: 'serve',
    configureServer(server) {
      // Astro puts its own trailing-slash check first in a post hook; this one runs after it and goes in front.
      return () => {
        server.middlewares.stack.unshift({ route: '', handle: trailingSlashMiddleware() });
      };
    },
  };
}
