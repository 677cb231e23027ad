import type { Config, Context } from '@netlify/functions';
import { SocialLinkUpdateSchema } from '../../src/lib/schemas/social.ts';
import { adminPage, CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { adminSocialLinks, updateSocialLink } from '../../src/lib/server/content/social.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';

/** The six platforms are fixed: list and update only, no create or delete. */
export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  allowMethods(req, hasId ? 'PUT' : 'GET');
  if (req.method === 'GET') {
    await requireUser(req);
    return adminPage('links', await adminSocialLinks(), req);
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  const id = idFrom(context);
  const link = await updateSocialLink(id, await readJson(req, SocialLinkUpdateSchema), user.username);
  await audit(context, user, 'social.update', target.social(link));
  await purgeTags(CACHE_TAGS.social);
  return json({ link });
});

export const config: Config = {
  path: ['/api/admin/social-media-links', '/api/admin/social-media-links/:id'],
};
