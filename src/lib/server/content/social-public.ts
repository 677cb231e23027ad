import { PLATFORMS } from '../../schemas/platforms.ts';
import { toPublicSocialLink } from '../../schemas/public-projections.ts';
import type { PublicSocialLink, SocialLink } from '../../schemas/social.ts';
import { CollectionReader, type CollectionLayout } from '../storage/collection.ts';

/*
 * What GET /api/social-media-links needs, and nothing that loads zod: the
 * collection's layout, its defaults, the footer view and the public read. The
 * schema and the writes are in social.ts.
 */

export const byOrder = (a: SocialLink, b: SocialLink) => a.displayOrder - b.displayOrder || a.id - b.id;

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
    .map(toPublicSocialLink);
}

export const SOCIAL_LAYOUT: CollectionLayout<SocialLink> = {
  store: 'social',
  counter: 'social',
  defaults: () => defaultSocialLinks(),
  views: { public: publicView },
};

const reader = new CollectionReader<SocialLink>(SOCIAL_LAYOUT);

export async function publicSocialLinks(): Promise<PublicSocialLink[]> {
  return (await reader.view<PublicSocialLink[]>('public')).map(toPublicSocialLink);
}
