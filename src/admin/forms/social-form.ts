import { intOr } from '../../lib/schemas/fields.ts';
import type { SocialLink, SocialLinkUpdate } from '../../lib/schemas/social.ts';

export interface SocialForm {
  id: number;
  url: string;
  handle: string;
  isActive: boolean;
  displayOrder: string;
  updatedAt: string;
}

export function socialForm(l: SocialLink): SocialForm {
  return {
    id: l.id,
    url: l.url,
    handle: l.handle,
    isActive: l.isActive,
    displayOrder: String(l.displayOrder),
    updatedAt: l.updatedAt,
  };
}

/** Spec section 5: displayOrder falls back to 1, minimum 1. */
export function displayOrderValue(text: string): number {
  return Math.max(1, intOr(text, 1));
}

export function socialPayload(f: SocialForm): SocialLinkUpdate {
  const payload: SocialLinkUpdate = {
    url: f.url.trim(),
    handle: f.handle.trim(),
    isActive: f.isActive,
    displayOrder: displayOrderValue(f.displayOrder),
  };
  if (f.updatedAt) payload.expectedUpdatedAt = f.updatedAt;
  return payload;
}
