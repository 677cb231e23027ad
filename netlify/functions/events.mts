import type { Config } from '@netlify/functions';
import { publicEvents } from '../../src/lib/server/content/events-public.ts';
import { EVENTS_PROJECTION } from '../../src/lib/schemas/public-projections.ts';
import { CACHE_TAGS, langQuery, publicJson } from '../../src/lib/server/content/responses.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** Public events from today on, soonest first; `?lang=es` gives Spanish titles and descriptions where they exist. */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  const lang = langQuery(new URL(req.url));
  return publicJson(EVENTS_PROJECTION, { events: await publicEvents(lang) }, CACHE_TAGS.events, {
    varyByQuery: ['lang'],
  });
});

export const config: Config = { path: '/api/events' };
