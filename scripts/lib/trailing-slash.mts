/**
 * One rule for a URL with a trailing slash (docs/decisions/new-w2-trailing-slash-redirects.md):
 * the site's URLs never end in one (astro.config.mjs `trailingSlash: 'never'`), and a printed or
 * pasted `/about/`, `/blog/` or `/es/` is answered 301 with the canonical URL, not 404.
 * Used by the dev server (scripts/dev/trailing-slash.mts) and by the build's redirect rules
 * (scripts/trailing-slash-redirects.mts), so the two answer alike.
 */

/**
 * The canonical path of `pathname` when it ends in one or more slashes, else null. Never for `/`,
 * the API (a POST must not be turned into a GET by a 301), or the dev server's own paths
 * (`/@vite/...`, `/_astro/...`, `/__...`).
 */
export function canonicalPath(pathname: string): string | null {
  if (pathname === '/' || !pathname.endsWith('/')) return null;
  if (/^\/(api|_|@|\.netlify)/.test(pathname)) return null;
  const canonical = pathname.replace(/\/+$/, '');
  return canonical === '' ? '/' : canonical;
}

/** A page's URL path from its built HTML file (build.format 'file'): `about.html` is `/about`, `es.html` `/es`. */
export function routeOfHtmlFile(relativeFile: string): string | null {
  const file = relativeFile.replace(/\\/g, '/');
  if (!file.endsWith('.html')) return null;
  const route = `/${file.slice(0, -'.html'.length)}`.replace(/\/index$/, '');
  // The error pages are no one's canonical URL; `/` has no slash to drop.
  if (route === '' || route === '/index' || /^\/(?:es\/)?(404|500)$/.test(route)) return null;
  if (route.startsWith('/_')) return null;
  return route;
}

/**
 * Netlify `_redirects` lines for the prerendered pages: `/about/  /about  301`. Not forced, so a
 * rule never shadows a file: Netlify matches rules with or without the trailing slash, and
 * `/about` itself is a file (about.html), served as it is, so there is no redirect loop. On-demand
 * pages (/blog, /volunteer, /contact) get no rule: a rule there would also match `/blog` and loop;
 * their function answers `/blog/` with Astro's own 301 (`trailingSlash: 'never'`).
 */
export function redirectRules(htmlFiles: readonly string[]): string[] {
  const routes = [...new Set(htmlFiles.map(routeOfHtmlFile).filter((r): r is string => r !== null))].sort();
  return routes.map((route) => `${route}/  ${route}  301`);
}
