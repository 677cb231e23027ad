import type { Config } from '@netlify/functions';
import { SocialLinkUpdateSchema } from '../../src/lib/schemas/social.ts';
import { target } from '../../src/lib/server/audit/audit.ts';
import { adminSocialLinks, updateSocialLink } from '../../src/lib/server/content/social.ts';
import { fixedRecordsHandler } from '../../src/lib/server/content/fixed-records.ts';
import { CACHE_TAGS } from '../../src/lib/server/content/responses.ts';

/** The six social platforms: fixed records, listed by any staff member and updated with edit_content (audited). */
export default fixedRecordsHandler({
  names: { list: 'links', one: 'link' },
  list: adminSocialLinks,
  schema: SocialLinkUpdateSchema,
  update: (id, input, user) => updateSocialLink(id, input, user.username),
  permission: 'edit_content',
  tag: CACHE_TAGS.social,
  audit: { kind: 'social.update', target: target.social },
});

export const config: Config = {
  path: ['/api/admin/social-media-links', '/api/admin/social-media-links/:id'],
};
