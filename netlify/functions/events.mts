import type { Config } from '@netlify/functions';
import { PublicEventsResponseSchema } from '../../src/lib/schemas/event.ts';
import { publicEvents } from '../../src/lib/server/content/events.ts';
import { CACHE_TAGS, publicJson } from '../../src/lib/server/content/responses.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** Public events from today on, soonest first. */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  return publicJson(PublicEventsResponseSchema, { events: await publicEvents() }, CACHE_TAGS.events);
});

export const config: Config = { path: '/api/events' };
