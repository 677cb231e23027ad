import type { Config } from '@netlify/functions';
import { SOCIAL_LINKS_PROJECTION } from '../../src/lib/schemas/public-projections.ts';
import { CACHE_TAGS, publicJson } from '../../src/lib/server/content/responses.ts';
import { publicSocialLinks } from '../../src/lib/server/content/social-public.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** Footer links: active only, by display order. */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  return publicJson(SOCIAL_LINKS_PROJECTION, { links: await publicSocialLinks() }, CACHE_TAGS.social);
});

export const config: Config = { path: '/api/social-media-links' };
