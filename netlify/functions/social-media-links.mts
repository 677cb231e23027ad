import type { Config } from '@netlify/functions';
import { PUBLIC_SOCIAL_LINKS } from '../../src/lib/schemas/public-fields.ts';
import { CACHE_TAGS, publicJson } from '../../src/lib/server/content/responses.ts';
import { publicSocialLinks } from '../../src/lib/server/content/social-public.ts';
import { allowMethods, handle } from '../../src/lib/server/http.ts';

/** Footer links: active only, by display order. */
export default handle(async (req) => {
  allowMethods(req, 'GET', 'HEAD');
  return publicJson(PUBLIC_SOCIAL_LINKS, { links: await publicSocialLinks() }, CACHE_TAGS.social);
});

export const config: Config = { path: '/api/social-media-links' };
