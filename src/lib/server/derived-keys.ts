import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { sessionSecret } from './env.ts';

/**
 * An HMAC key derived from the session secret for one purpose: HMAC-SHA256(secret, purpose), as a
 * KeyObject made once per secret. HMAC under a KeyObject gives the same bytes as under the raw key, and
 * costs a tenth: Node prepares a raw key anew on every createHmac (about 30 µs), which the audit chain paid
 * twice per entry, 100,000 entries at a time in its full verification. A changed SESSION_SECRET (a
 * rotation, a test) derives the key again.
 */
const made = new Map<string, { secret: Buffer; key: KeyObject }>();

export function derivedKey(purpose: string): KeyObject {
  const secret = Buffer.from(sessionSecret());
  const had = made.get(purpose);
  if (had?.secret.equals(secret)) return had.key;
  const key = createSecretKey(createHmac('sha256', secret).update(purpose).digest());
  made.set(purpose, { secret, key });
  return key;
}
