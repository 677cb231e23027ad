import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorMac, entryHash } from '../../src/lib/server/audit/trail.ts';
import { derivedKey } from '../../src/lib/server/derived-keys.ts';
import { resetEnv, sessionSecret } from '../../src/lib/server/env.ts';

/*
 * A key derived from the session secret is made once (src/lib/server/derived-keys.ts): the MACs made with
 * it are, byte for byte, those of the raw derived key, and a new SESSION_SECRET derives a new key.
 */

const previous = { APP_ENV: process.env.APP_ENV, SESSION_SECRET: process.env.SESSION_SECRET };
const useSecret = (secret: string | undefined) => {
  process.env.APP_ENV = 'test';
  if (secret === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = secret;
  resetEnv();
};
afterEach(() => {
  for (const [k, v] of Object.entries(previous))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnv();
});

/** The derivation spelled out with the raw key: HMAC(HMAC(secret, purpose), data). */
const rawMac = (purpose: string, data: string) =>
  createHmac('sha256', createHmac('sha256', sessionSecret()).update(purpose).digest())
    .update(data)
    .digest('hex');

const entry = {
  seq: 7,
  at: '2026-11-27T12:00:00.000Z',
  kind: 'article.update' as const,
  actorId: 2,
  actorName: 'editor',
  target: { type: 'article', id: 3, label: 'Report' },
  details: { b: '1', a: 'x' },
  ip: '198.51.100.7',
  prevHash: '0'.repeat(64),
};
const canonical = JSON.stringify([
  7,
  entry.at,
  entry.kind,
  2,
  'editor',
  entry.target,
  { a: 'x', b: '1' },
  entry.ip,
  entry.prevHash,
]);

describe('derivedKey', () => {
  it('MACs the same bytes as the raw derived key, for the audit chain and its anchors', () => {
    useSecret('a-test-session-secret-of-at-least-thirty-two-bytes-1');
    expect(createHmac('sha256', derivedKey('p')).update('data').digest('hex')).toBe(rawMac('p', 'data'));
    expect(entryHash(entry)).toBe(rawMac('campaign audit chain v1', canonical));
    expect(anchorMac(['day', '2026-11-27', 7, 'h'])).toBe(
      rawMac('campaign audit anchor v1', JSON.stringify(['day', '2026-11-27', 7, 'h'])),
    );
  });

  it('is made once per secret and purpose, and again when the secret changes', () => {
    useSecret('a-test-session-secret-of-at-least-thirty-two-bytes-1');
    const first = derivedKey('p');
    expect(derivedKey('p')).toBe(first);
    expect(derivedKey('q')).not.toBe(first);
    const before = entryHash(entry);
    useSecret('a-test-session-secret-of-at-least-thirty-two-bytes-2');
    expect(derivedKey('p')).not.toBe(first);
    expect(entryHash(entry)).not.toBe(before);
    expect(entryHash(entry)).toBe(rawMac('campaign audit chain v1', canonical));
    useSecret(undefined);
    expect(createHmac('sha256', derivedKey('p')).update('data').digest('hex')).toBe(rawMac('p', 'data'));
  });
});
