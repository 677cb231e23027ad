import type { z } from 'zod';
import { SocialLinkSchema, type SocialLink, type SocialLinkUpdateSchema } from '../../schemas/social.ts';
import { HttpError } from '../errors.ts';
import { ConflictError } from '../storage/compare-and-set.ts';
import { laterStamp } from './stamps.ts';
import { Collection } from '../storage/collection.ts';
import { byOrder, SOCIAL_LAYOUT } from './social-public.ts';

export type SocialLinkData = z.output<typeof SocialLinkUpdateSchema>;

export { defaultSocialLinks, publicSocialLinks } from './social-public.ts';

export const socialLinks = new Collection<SocialLink>({ ...SOCIAL_LAYOUT, schema: SocialLinkSchema });

export async function adminSocialLinks(): Promise<SocialLink[]> {
  return (await socialLinks.list()).sort(byOrder);
}

export async function updateSocialLink(
  id: number,
  input: SocialLinkData,
  username: string,
  now = new Date(),
): Promise<SocialLink> {
  const after = await socialLinks.update(id, (cur) => {
    if (input.expectedUpdatedAt !== undefined && input.expectedUpdatedAt !== cur.updatedAt)
      throw new ConflictError();
    return {
      ...cur,
      url: input.url,
      handle: input.handle,
      isActive: input.isActive,
      displayOrder: input.displayOrder,
      updatedBy: username,
      updatedAt: laterStamp(now, cur.updatedAt),
    };
  });
  if (!after) throw new HttpError(404, 'Social media link not found');
  return after;
}
