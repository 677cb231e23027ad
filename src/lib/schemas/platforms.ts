/**
 * The social platforms of spec section 3, zod-free so the footer script can
 * import the list without the schema library (social.ts builds its enum from it).
 */
export const PLATFORMS = ['facebook', 'x', 'instagram', 'linkedin', 'youtube', 'tiktok'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The platforms' names as the public site shows them (a link's title when it has no handle). */
export const PLATFORM_NAMES: Record<Platform, string> = {
  facebook: 'Facebook',
  x: 'X',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};
