import { LANG_TAGS, alternatePaths } from '../../lang-paths.ts';
import type { ArticleSummary } from '../../public-lists.ts';
import { pageUrl } from '../../urls.ts';

/**
 * RSS 2.0 and sitemap XML for the public site (pure: tested without a store).
 * Links are built from the configured site URL, never the Host header.
 */

export function xmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export const articlePath = (slug: string) => `/article/${encodeURIComponent(slug)}`;

export function buildRss(
  articles: readonly ArticleSummary[],
  opts: { site: URL; title: string; description: string },
): string {
  const items = articles.map((a) => {
    const link = pageUrl(articlePath(a.slug), opts.site);
    const date = a.publishedAt;
    return [
      '    <item>',
      `      <title>${xmlEscape(a.title)}</title>`,
      `      <link>${xmlEscape(link)}</link>`,
      `      <guid isPermaLink="true">${xmlEscape(link)}</guid>`,
      `      <pubDate>${new Date(date).toUTCString()}</pubDate>`,
      // RSS 2.0's <author> wants an email address; a name goes in dc:creator.
      `      <dc:creator>${xmlEscape(a.author)}</dc:creator>`,
      `      <description>${xmlEscape(a.excerpt)}</description>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${xmlEscape(opts.title)}</title>`,
    `    <link>${xmlEscape(pageUrl('/blog', opts.site))}</link>`,
    `    <description>${xmlEscape(opts.description)}</description>`,
    '    <language>en-us</language>',
    `    <atom:link href="${xmlEscape(new URL('/rss.xml', opts.site).href)}" rel="self" type="application/rss+xml" />`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** Articles per page of /blog and its archive (/blog/page/2, ...). */
export const BLOG_PAGE_SIZE = 9;

/** Number of pages the news list has for `count` published articles (at least one). */
export function blogPageCount(count: number): number {
  return Math.max(1, Math.ceil(count / BLOG_PAGE_SIZE));
}

/** Path of a page of the news list: /blog, then /blog/page/2 and on. */
export function blogPagePath(page: number): string {
  return page <= 1 ? '/blog' : `/blog/page/${page}`;
}

/** The archive pages after the first. */
export function archivePaths(count: number): string[] {
  return Array.from({ length: blogPageCount(count) - 1 }, (_, i) => blogPagePath(i + 2));
}

/** The public static routes of spec section 2 and the voter help (no admin or password pages). */
export const SITEMAP_STATIC_PATHS = [
  '/',
  '/about',
  '/platform',
  '/donate',
  '/volunteer',
  '/blog',
  '/contact',
  '/vote',
  '/privacy-policy',
  '/terms-of-use',
];

/**
 * One <url> per page and language (docs/decisions/166-spanish.md), each listing all its language
 * versions as xhtml:link alternates (Google's sitemap form of hreflang).
 */
function sitemapUrls(path: string, site: URL, lastmod?: string): string[] {
  const versions = Object.entries(alternatePaths(path)) as [keyof typeof LANG_TAGS, string][];
  const links = versions.map(
    ([lang, p]) =>
      `<xhtml:link rel="alternate" hreflang="${LANG_TAGS[lang].html}" href="${xmlEscape(pageUrl(p, site))}"/>`,
  );
  const mod = lastmod ? `<lastmod>${lastmod}</lastmod>` : '';
  const paths = versions.length ? versions.map(([, p]) => p) : [path];
  return paths.map((p) => `  <url><loc>${xmlEscape(pageUrl(p, site))}</loc>${mod}${links.join('')}</url>`);
}

/** Every published article, plus the static routes and the news archive's pages, in every language. */
export function buildSitemap(articles: readonly ArticleSummary[], site: URL): string {
  const archive = archivePaths(articles.length);
  const urls = [
    ...[...SITEMAP_STATIC_PATHS, ...archive].flatMap((p) => sitemapUrls(p, site)),
    ...articles.flatMap((a) => sitemapUrls(articlePath(a.slug), site, new Date(a.updatedAt).toISOString())),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`,
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * robots.txt: everything public may be crawled (staff and utility pages carry
 * `noindex` themselves, which a crawler can only read if it may fetch them);
 * the API is not pages. Names the sitemap. Without the file, every crawler's
 * (and Lighthouse's) first request fell through to the on-demand 404 page.
 */
export function buildRobots(site: URL): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).href}`,
    '',
  ].join('\n');
}

/**
 * CDN caching for on-demand public pages: `freshSeconds` fresh (60 s for
 * articles and feeds; 30 s, the public lists' refresh, for /blog and
 * /volunteer), then served stale while the CDN revalidates; purged at once by
 * tag on admin edits (docs/decisions/161-content-and-editor.md).
 */
export function cdnHeaders(tags: string | readonly string[], freshSeconds = 60): Record<string, string> {
  return {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Netlify-CDN-Cache-Control': `public, s-maxage=${freshSeconds}, stale-while-revalidate=${freshSeconds * 5}`,
    'Netlify-Cache-Tag': typeof tags === 'string' ? tags : tags.join(','),
  };
}
