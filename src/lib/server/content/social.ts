import type { z } from 'zod';
import {
  PLATFORMS,
  PublicSocialLinkSchema,
  SocialLinkSchema,
  type PublicSocialLink,
  type SocialLink,
  type SocialLinkUpdateSchema,
} from '../../schemas/social.ts';
import { HttpError } from '../errors.ts';
import { ConflictError } from '../store.ts';
import { laterStamp } from './articles.ts';
import { Collection } from './collection.ts';

export type SocialLinkData = z.output<typeof SocialLinkUpdateSchema>;

const byOrder = (a: SocialLink, b: SocialLink) => a.displayOrder - b.displayOrder || a.id - b.id;

/**
 * The six platforms always exist (ids 1..6 in PLATFORMS order): links are only
 * ever updated, never created or deleted. Production starts with them empty
 * and inactive; the local seed fills them in.
 */
export function defaultSocialLinks(now = new Date(0)): SocialLink[] {
  return PLATFORMS.map((platform, i) => ({
    id: i + 1,
    platform,
    url: '',
    handle: '',
    isActive: false,
    displayOrder: i + 1,
    updatedBy: 'system',
    updatedAt: now.toISOString(),
  }));
}

/** Footer view: active links with a URL, by display order, public fields only. */
function publicView(items: SocialLink[]): PublicSocialLink[] {
  return items
    .filter((l) => l.isActive && l.url)
    .sort(byOrder)
    .map((l) => PublicSocialLinkSchema.parse(l));
}

export const socialLinks = new Collection<SocialLink>({
  store: 'social',
  counter: 'social',
  schema: SocialLinkSchema,
  defaults: () => defaultSocialLinks(),
  views: { public: publicView },
});

export async function publicSocialLinks(): Promise<PublicSocialLink[]> {
  return (await socialLinks.view<PublicSocialLink[]>('public')).map((l) => PublicSocialLinkSchema.parse(l));
}

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
