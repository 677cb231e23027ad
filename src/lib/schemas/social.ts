import { z } from './zod.ts';
import { text, intOr } from './fields.ts';
import { PLATFORMS } from './platforms.ts';

export { PLATFORMS };
export const PlatformSchema = z.enum(PLATFORMS);
export type Platform = z.infer<typeof PlatformSchema>;

export const PLATFORM_LABELS: Record<Platform, string> = {
  facebook: 'Facebook',
  x: 'X (Twitter)',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};

export const SocialLinkSchema = z.object({
  id: z.number().int().positive(),
  platform: PlatformSchema,
  url: z.string(),
  handle: z.string(),
  isActive: z.boolean(),
  displayOrder: z.number().int().min(1),
  updatedBy: z.string(),
  updatedAt: z.string(),
});
export type SocialLink = z.infer<typeof SocialLinkSchema>;

/** The public projection: what the footer needs. */
export type PublicSocialLink = Pick<SocialLink, 'id' | 'platform' | 'url' | 'handle'>;

export const SocialLinkUpdateSchema = z.strictObject({
  url: z.union([
    z.literal(''),
    z.url({ protocol: /^https?$/, error: 'Must be an http or https URL' }).max(2048),
  ]),
  handle: text(100),
  isActive: z.boolean(),
  /** Spec section 5: falls back to 1, minimum 1. */
  displayOrder: z.unknown().transform((v) => Math.max(1, intOr(v, 1))),
  expectedUpdatedAt: z.string().max(40).optional(),
});
export type SocialLinkUpdate = z.input<typeof SocialLinkUpdateSchema>;

/** Footer title: the handle, or else the platform. */
export function socialTitle(link: Pick<SocialLink, 'handle' | 'platform'>): string {
  return link.handle.trim() || link.platform;
}
