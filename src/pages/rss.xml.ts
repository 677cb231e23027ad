import type { APIRoute } from 'astro';
import { IDENTITY } from '../content/identity';
import { publicArticles } from '../lib/server/content/articles';
import { buildRss, cdnHeaders } from '../lib/server/public/feeds';

export const prerender = false;

/** RSS of the published articles, newest first. */
export const GET: APIRoute = async ({ site, url }) => {
  try {
    const xml = buildRss(await publicArticles(), {
      site: site ?? new URL(url.origin),
      title: `${IDENTITY.candidateName} for ${IDENTITY.office}: News`,
      description: `News and updates from the ${IDENTITY.committeeName}.`,
    });
    return new Response(xml, {
      headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', ...cdnHeaders('news') },
    });
  } catch (err) {
    console.error('[rss.xml] could not read articles', err);
    return new Response('Temporarily unavailable', {
      status: 503,
      headers: { 'Retry-After': '30', 'Cache-Control': 'no-store' },
    });
  }
};
