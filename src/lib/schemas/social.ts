import { z } from './zod.ts';
import { fieldMask, PUBLIC_FIELDS } from './public-fields.ts';
import { text, intOr } from './fields.ts';

import { PLATFORM_NAMES, PLATFORMS, type Platform } from './platforms.ts';

export { PLATFORMS, type Platform };
export const PlatformSchema = z.enum(PLATFORMS);

/** The dashboard's names: spec section 2 shows platform 'x' as "X (Twitter)". */
export const PLATFORM_LABELS: Record<Platform, string> = { ...PLATFORM_NAMES, x: 'X (Twitter)' };

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

/** The public projection: what the footer needs (PUBLIC_FIELDS.socialLink). */
export const PublicSocialLinkSchema = SocialLinkSchema.pick(fieldMask(PUBLIC_FIELDS.socialLink));
export type PublicSocialLink = z.infer<typeof PublicSocialLinkSchema>;

/** GET /api/social-media-links. */
export const PublicSocialLinksResponseSchema = z.object({ links: z.array(PublicSocialLinkSchema) });

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
