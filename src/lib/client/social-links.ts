import { PLATFORM_NAMES, PLATFORMS, type Platform } from '../schemas/platforms.ts';

/*
 * Browser-side reading of GET /api/social-media-links for the footer icons.
 * Pure functions; the footer script does the fetch. The endpoint may be missing
 * or failing: anything unexpected yields no links rather than an error.
 * The platform list is the schemas' (zod-free src/lib/schemas/platforms.ts).
 */

export const socialPlatforms = PLATFORMS;
export type SocialPlatform = Platform;

/** Human-readable platform names used when a link has no handle. */
export const socialPlatformNames = PLATFORM_NAMES;

export interface FooterSocialLink {
  platform: SocialPlatform;
  url: string;
  /** Title and accessible name: the handle, or else the platform (spec section 2). */
  label: string;
}

function isPlatform(value: unknown): value is SocialPlatform {
  return typeof value === 'string' && (socialPlatforms as readonly string[]).includes(value);
}

/** Only absolute http(s) URLs become links; anything else (javascript:, relative) is dropped. */
function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Turn the endpoint's JSON body `{ links: [{ id, platform, url, handle }] }` into
 * footer links, keeping the server's order and skipping malformed entries.
 */
export function parseSocialLinks(body: unknown): FooterSocialLink[] {
  if (typeof body !== 'object' || body === null || !('links' in body)) return [];
  const { links } = body;
  if (!Array.isArray(links)) return [];
  const result: FooterSocialLink[] = [];
  for (const entry of links as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { platform, url, handle } = entry as Record<string, unknown>;
    const href = safeHttpUrl(url);
    if (!isPlatform(platform) || href === null) continue;
    const trimmedHandle = typeof handle === 'string' ? handle.trim() : '';
    result.push({
      platform,
      url: href,
      label: trimmedHandle === '' ? socialPlatformNames[platform] : trimmedHandle,
    });
  }
  return result;
}
