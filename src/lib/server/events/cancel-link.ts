import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { derivedKey } from '../derived-keys.ts';

/*
 * The token of an RSVP's cancellation link: an HMAC-SHA256, under a key
 * derived from the server's secret for this one purpose, of the event id and
 * the RSVP's id. Nothing is stored: the same person at the same event always
 * gets the same token, so every email (confirmation, promotion, status) can
 * carry a working link without a write, and the link carries no hash of the
 * email (the server finds the RSVP by checking the token against the event's
 * roster). Design: docs/decisions/150-rsvp.md.
 */

/** Domain separation: this key signs nothing but RSVP cancellation links (v1). */
const PURPOSE = 'campaign-site:rsvp-cancel-link:v1';

/** The link key, derived from SESSION_SECRET (ConfigError, a 503, when production has none). */
function linkKey(): KeyObject {
  return derivedKey(PURPOSE);
}

/** Throws ConfigError (503) now when links cannot be made, so an RSVP is refused before anything is stored. */
export function requireCancelLinks(): void {
  linkKey();
}

function tokenWith(key: KeyObject, eventId: number, rsvpId: string): Buffer {
  return createHmac('sha256', key).update(`${eventId}\n${rsvpId}`).digest();
}

/** The cancellation token of one person's RSVP to one event (43 base64url characters). */
export function cancelToken(eventId: number, rsvpId: string): string {
  return tokenWith(linkKey(), eventId, rsvpId).toString('base64url');
}

/**
 * Which of `rsvpIds` (an event's roster) the token was made for, or null.
 * Every candidate is compared in constant time, and all of them are compared
 * (no early exit), so the time says nothing about where a match is.
 */
export function rsvpIdForToken(eventId: number, token: string, rsvpIds: readonly string[]): string | null {
  const given = Buffer.from(token, 'base64url');
  if (given.length !== 32 || given.toString('base64url') !== token) return null;
  const key = linkKey();
  let found: string | null = null;
  for (const id of rsvpIds) {
    if (timingSafeEqual(tokenWith(key, eventId, id), given) && found === null) found = id;
  }
  return found;
}
