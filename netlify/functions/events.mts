import type { Config } from '@netlify/functions';
import { publicEvents } from '../../src/lib/server/content/events-public.ts';
import { PUBLIC_EVENTS } from '../../src/lib/schemas/public-fields.ts';
import { CACHE_TAGS, publicJson } from '../../src/lib/server/content/responses.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** Public events from today on, soonest first. */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  return publicJson(PUBLIC_EVENTS, { events: await publicEvents() }, CACHE_TAGS.events);
});

export const config: Config = { path: '/api/events' };
