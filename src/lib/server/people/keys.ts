import { createHmac } from 'node:crypto';
import { derivedKey } from '../derived-keys.ts';
import { hashed, key } from '../storage/keys.ts';

/**
 * How people are found (docs/decisions/149-people.md): an email normalised (trimmed, NFC, lowercase; no Gmail dot or
 * `+tag` folding), a phone as the form's E.164, and each looked up by a keyed hash (HMAC-SHA256 under a key derived
 * from SESSION_SECRET for this purpose), so a key listing reveals no address and a list of guessed addresses cannot
 * be checked without the secret.
 */

export const normalEmail = (email: string | null | undefined): string | null => {
  const e = email?.normalize('NFC').trim().toLowerCase();
  return e ? e : null;
};

export const normalPhone = (phone: string | null | undefined): string | null => {
  const p = phone?.trim();
  return p && /^\+[1-9]\d{6,14}$/.test(p) ? p : null;
};

/** A name as compared: whitespace collapsed, case and accents folded. */
export const nameKey = (name: string | null | undefined): string =>
  (name ?? '')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

export type AddressKind = 'email' | 'phone';

/** The keyed hash of an address (its kind is part of the input: an email never collides with a phone). */
export function lookupHash(kind: AddressKind, normalised: string): string {
  return createHmac('sha256', derivedKey('people lookup v1')).update(`${kind}:${normalised}`).digest('hex');
}

export const lookupKey = (kind: AddressKind, normalised: string) => key(kind, lookupHash(kind, normalised));
/**
 * The bridge from the email lists' own keys (the sha256 the unsubscribe link and the suppression ledger carry) to
 * the person: deleted with the person by "forget me", never left as a tombstone.
 */
export const bridgeKey = (emailSha256: string) => key('bridge', emailSha256);
export const bridgeOf = (email: string) => bridgeKey(hashed(email));
export const personKey = (id: string) => key('person', id);
export const TIMELINE_PREFIX = 'timeline/';
export const timelinePrefix = (id: string) => `${key('timeline', id)}/`;
export const queueKey = (a: string, b: string) => key('queue', `${a}--${b}`);
export const QUEUE_PREFIX = 'queue/';
export const mergeKey = (id: string) => key('merge', id);
