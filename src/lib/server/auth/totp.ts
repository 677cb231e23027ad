import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { derivedKey } from '../derived-keys.ts';

/**
 * RFC 6238 TOTP (SHA-1, 6 digits, 30 s steps: what every authenticator app
 * reads from a QR code), recovery codes, and encryption of secrets at rest.
 * Pure functions over a clock; storage lives in two-factor.ts.
 */
export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** One step either side: a phone clock 30 s off still works. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

/** A new 160-bit secret (RFC 4226's recommended size), base32 as apps expect it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = '', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
  });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, account: string, issuer: string): string {
  return totp(secretBase32, account, issuer).toString();
}

/** The code for a moment (tests, and nothing else, need this). */
export function totpCode(secretBase32: string, nowMs = Date.now()): string {
  return totp(secretBase32).generate({ timestamp: nowMs });
}

/**
 * The absolute time step a code belongs to, or null when it matches none in
 * the window. Callers refuse a step at or below the last one used, so a code
 * works once.
 */
export function matchTotpStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD) + delta;
}

// ---------------------------------------------------------------------------
// Recovery codes: 10 random characters each (50 bits), shown once, stored as HMACs.

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    let s = '';
    for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

/** Case, spaces and dashes do not matter when a person types a code. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(code: string): string {
  return createHmac('sha256', derivedKey('campaign recovery codes v1'))
    .update(normaliseRecoveryCode(code))
    .digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

// ---------------------------------------------------------------------------
// Secrets at rest: AES-256-GCM under a key derived from SESSION_SECRET, so a copy of the store alone does not
// give away anyone's second factor.

export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey('campaign totp secrets v1'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    data.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

export function openSecret(sealed: string): string | null {
  const [version, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !data || !tag) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      derivedKey('campaign totp secrets v1'),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
