import type { PublicArticle } from '../../schemas/article.ts';

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
  articles: readonly PublicArticle[],
  opts: { site: URL; title: string; description: string },
): string {
  const items = articles.map((a) => {
    const link = new URL(articlePath(a.slug), opts.site).href;
    const date = a.publishedAt;
    return [
      '    <item>',
      `      <title>${xmlEscape(a.title)}</title>`,
      `      <link>${xmlEscape(link)}</link>`,
      `      <guid isPermaLink="true">${xmlEscape(link)}</guid>`,
      `      <pubDate>${new Date(date).toUTCString()}</pubDate>`,
      `      <author>${xmlEscape(a.author)}</author>`,
      `      <description>${xmlEscape(a.excerpt)}</description>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${xmlEscape(opts.title)}</title>`,
    `    <link>${xmlEscape(new URL('/blog', opts.site).href)}</link>`,
    `    <description>${xmlEscape(opts.description)}</description>`,
    '    <language>en-us</language>',
    `    <atom:link href="${xmlEscape(new URL('/rss.xml', opts.site).href)}" rel="self" type="application/rss+xml" />`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** The public static routes of spec section 2 (no admin or password pages). */
export const SITEMAP_STATIC_PATHS = [
  '/',
  '/about',
  '/platform',
  '/donate',
  '/volunteer',
  '/blog',
  '/contact',
  '/privacy-policy',
  '/terms-of-use',
];

export function buildSitemap(articles: readonly PublicArticle[], site: URL): string {
  const urls = [
    ...SITEMAP_STATIC_PATHS.map((p) => `  <url><loc>${xmlEscape(new URL(p, site).href)}</loc></url>`),
    ...articles.map(
      (a) =>
        `  <url><loc>${xmlEscape(new URL(articlePath(a.slug), site).href)}</loc><lastmod>${new Date(a.updatedAt).toISOString()}</lastmod></url>`,
    ),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** CDN caching for on-demand public pages: 60 s fresh, 5 min stale while revalidating; purged by tag. */
export function cdnHeaders(tag: string): Record<string, string> {
  return {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Netlify-CDN-Cache-Control': 'public, s-maxage=60, stale-while-revalidate=300',
    'Netlify-Cache-Tag': tag,
  };
}
