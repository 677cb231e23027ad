import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sanitisedName } from '../../src/lib/server/audit/refused-sign-ins.ts';
import { anchorMac, entryHash } from '../../src/lib/server/audit/trail.ts';
import { hashRecoveryCode, openSecret, sealSecret } from '../../src/lib/server/auth/totp.ts';
import { cancelToken } from '../../src/lib/server/events/cancel-link.ts';
import { validUnsubscribeToken } from '../../src/lib/server/messaging/email-guard.ts';
import { derivedKey } from '../../src/lib/server/derived-keys.ts';
import { resetEnv, sessionSecret } from '../../src/lib/server/env.ts';

/*
 * A key derived from the session secret is made once (src/lib/server/derived-keys.ts), and every key the
 * server derives from it comes from there: the MACs and ciphertexts made with it are, byte for byte, those
 * of the raw derived key (so links already sent and secrets already stored still hold), and a new
 * SESSION_SECRET derives a new key.
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

/** The derivation spelled out with the raw key: HMAC(secret, purpose). */
const rawKey = (purpose: string) => createHmac('sha256', sessionSecret()).update(purpose).digest();
/** HMAC(HMAC(secret, purpose), data). */
const rawMac = (purpose: string, data: string, encoding: 'hex' | 'base64url' = 'hex') =>
  createHmac('sha256', rawKey(purpose)).update(data).digest(encoding);

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

  it('every other key made from the session secret gives the bytes stored and sent before', async () => {
    useSecret('a-test-session-secret-of-at-least-thirty-two-bytes-1');
    expect(cancelToken(12, 'r1')).toBe(rawMac('campaign-site:rsvp-cancel-link:v1', '12\nr1', 'base64url'));
    const hash = 'ab'.repeat(32);
    expect(validUnsubscribeToken(hash, rawMac('campaign unsubscribe v1', hash, 'base64url'))).toBe(true);
    expect(hashRecoveryCode('ABCDE-12345')).toBe(rawMac('campaign recovery codes v1', 'abcde12345'));
    expect(await sanitisedName('Somebody Typed')).toBe(
      `unknown name ${rawMac('campaign refused sign-in names v1', 'somebody typed').slice(0, 8)}`,
    );
    // A two-factor secret sealed under the raw key (as stored before) opens, and a new seal opens under it.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', rawKey('campaign totp secrets v1'), iv);
    const data = Buffer.concat([cipher.update('JBSWY3DPEHPK3PXP', 'utf8'), cipher.final()]);
    const old = ['v1', iv, data, cipher.getAuthTag()].map((x) =>
      typeof x === 'string' ? x : x.toString('base64url'),
    );
    expect(openSecret(old.join('.'))).toBe('JBSWY3DPEHPK3PXP');
    const [, iv2, data2, tag2] = sealSecret('JBSWY3DPEHPK3PXP').split('.');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      rawKey('campaign totp secrets v1'),
      Buffer.from(iv2!, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag2!, 'base64url'));
    expect(
      Buffer.concat([decipher.update(Buffer.from(data2!, 'base64url')), decipher.final()]).toString(),
    ).toBe('JBSWY3DPEHPK3PXP');
  });
});
