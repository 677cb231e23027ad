/**
 * The one form of a page URL (docs/decisions/159-public-forms.md): no trailing slash except the home page,
 * on the configured site origin (never the Host header). The build writes
 * pages as `about.html` (astro.config.mjs `build.format: 'file'`), which
 * Netlify serves at `/about` without a redirect, so canonical, og:url, the
 * sitemap, RSS and the nav all name the address that is actually served.
 */
export function pagePath(pathname: string): string {
  const path = pathname.replace(/\/index(\.html)?$/, '/').replace(/\.html$/, '');
  return path.length > 1 ? path.replace(/\/+$/, '') : '/';
}

export function pageUrl(pathname: string, site: URL | string): string {
  return new URL(pagePath(pathname), site).href;
}
