import type Argon2 from 'argon2';
import { env } from '../env.ts';

/**
 * argon2 (a native module) is loaded on first use: every staff function reaches
 * this module through users.ts, but only sign-in, password changes and new
 * accounts hash or verify (docs/decisions/162-public-pages-and-performance.md).
 */
let loading: Promise<typeof Argon2> | undefined;
const argon2 = () => (loading ??= import('argon2').then((m) => m.default));

/**
 * Argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1): production
 * and the dev server. Hashes made with other parameters are re-hashed at the
 * next successful login.
 */
export const ARGON2_OPTIONS = {
  /** argon2.argon2id (the library's constant; the hash's `$argon2id$` prefix is tested). */
  type: 2,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * APP_ENV=test only: the cheapest argon2id the library accepts, so the
 * hundreds of sign-ins and fuzz runs in the API tests cost microseconds, not
 * seconds. Never used by production or `npm run dev` (a test holds this).
 */
const ARGON2_TEST_OPTIONS = { ...ARGON2_OPTIONS, memoryCost: 1024, timeCost: 1 } as const;

/** The argon2 parameters in force: production's everywhere but under APP_ENV=test. */
export function argon2Options(): typeof ARGON2_OPTIONS | typeof ARGON2_TEST_OPTIONS {
  return env().APP_ENV === 'test' ? ARGON2_TEST_OPTIONS : ARGON2_OPTIONS;
}

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, argon2Options());
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await (await argon2()).verify(hash, password);
  } catch {
    return false;
  }
}

export async function needsRehash(hash: string): Promise<boolean> {
  const lib = await argon2();
  try {
    return lib.needsRehash(hash, argon2Options());
  } catch {
    return true;
  }
}

let dummy: Promise<string> | null = null;

/** Verifies against a throwaway hash so an unknown user costs as much as a wrong password. */
export async function dummyVerify(password: string): Promise<false> {
  dummy ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummy, password);
  return false;
}
