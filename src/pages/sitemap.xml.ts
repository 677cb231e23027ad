import type { APIRoute } from 'astro';
import { publicArticles } from '../lib/server/content/articles';
import { buildSitemap, cdnHeaders } from '../lib/server/public/feeds';

export const prerender = false;

/** The static public routes plus every published article. */
export const GET: APIRoute = async ({ site, url }) => {
  try {
    const xml = buildSitemap(await publicArticles(), site ?? new URL(url.origin));
    return new Response(xml, {
      headers: { 'Content-Type': 'application/xml; charset=utf-8', ...cdnHeaders('news') },
    });
  } catch (err) {
    console.error('[sitemap.xml] could not read articles', err);
    return new Response('Temporarily unavailable', {
      status: 503,
      headers: { 'Retry-After': '30', 'Cache-Control': 'no-store' },
    });
  }
};
