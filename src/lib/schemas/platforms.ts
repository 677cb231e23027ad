/**
 * The social platforms (spec section 3), free of zod so the public social-links
 * function can use them without loading it (social.ts builds its enum from this).
 */
export const PLATFORMS = ['facebook', 'x', 'instagram', 'linkedin', 'youtube', 'tiktok'] as const;
