import type { Config } from '@netlify/functions';
import { newsFeed } from '../../src/lib/server/content/articles-public.ts';
import { NEWS_PROJECTION } from '../../src/lib/schemas/public-projections.ts';
import { CACHE_TAGS, langQuery, publicJson } from '../../src/lib/server/content/responses.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** Public news: published articles whose time has come, newest first; `?lang=es` gives Spanish versions where they exist. */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  const lang = langQuery(new URL(req.url));
  return publicJson(NEWS_PROJECTION, { articles: await newsFeed(lang) }, CACHE_TAGS.news, {
    varyByQuery: ['lang'],
  });
});

export const config: Config = { path: '/api/news' };
