/**
 * One rule for a URL with a trailing slash (docs/decisions/162-public-pages-and-performance.md):
 * the site's URLs never end in one (astro.config.mjs `trailingSlash: 'never'`), and a printed or
 * pasted `/about/`, `/blog/` or `/es/` is answered 301 with the canonical URL, not 404.
 * Used by the dev server (scripts/dev/trailing-slash.mts) and, on Netlify, by the on-demand
 * function every such path reaches (scripts/ssr-trailing-slash.mts), so the two answer alike.
 */

/**
 * The canonical path of `pathname` when it ends in one or more slashes, else null. Never for `/`,
 * the API (a POST must not be turned into a GET by a 301), or the dev server's own paths
 * (`/@vite/...`, `/_astro/...`, `/__...`). Plain JavaScript inside (no type syntax in the body):
 * its source is written into the built function as it is.
 */
export function canonicalPath(pathname: string): string | null {
  if (pathname === '/' || !pathname.endsWith('/')) return null;
  if (/^\/(api|_|@|\.netlify)/.test(pathname)) return null;
  const canonical = pathname.replace(/\/+$/, '');
  return canonical === '' ? '/' : canonical;
}

/** The status of the redirect: 301 for GET and HEAD, 308 (which keeps the method and body) otherwise. */
export const redirectStatus = (method: string) => (/^(GET|HEAD)$/i.test(method) ? 301 : 308);

const MARKER = '// ssr-trailing-slash';
/** The handler scripts/ssr-localized-404.mjs writes into the on-demand function. */
const HANDLER = 'export default function handler(request, context) {';

/**
 * The on-demand function's source with the redirect in front of its handler: Netlify hands it every path
 * with no file, `/about/` and `/blog/` included, and the adapter's handler answers a path no route
 * matches with the 404 page before Astro's own trailing-slash redirect can run. Null when the source no
 * longer looks as expected; unchanged when already patched.
 */
export function patchSsrSource(source: string): string | null {
  if (source.includes(MARKER)) return source;
  if (!source.includes(HANDLER)) return null;
  const fn = canonicalPath.toString();
  const status = redirectStatus.toString();
  return source.replace(
    HANDLER,
    `${MARKER}: /page/ answers 301 /page (scripts/ssr-trailing-slash.mts).\n` +
      `\t\t\tconst trailingSlashCanonical = ${fn};\n` +
      `\t\t\tconst trailingSlashStatus = ${status};\n` +
      `\t\t\t${HANDLER}\n` +
      `\t\t\t\tconst trailingSlashUrl = new URL(request.url);\n` +
      `\t\t\t\tconst trailingSlashTo = trailingSlashCanonical(trailingSlashUrl.pathname);\n` +
      `\t\t\t\tif (trailingSlashTo) return new Response(null, { status: trailingSlashStatus(request.method), headers: { Location: trailingSlashTo + trailingSlashUrl.search, 'Cache-Control': 'public, max-age=0, must-revalidate' } });`,
  );
}
