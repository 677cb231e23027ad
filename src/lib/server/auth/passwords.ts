import argon2 from 'argon2';
import { env } from '../env.ts';

/**
 * Argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1): production
 * and the dev server. Hashes made with other parameters are re-hashed at the
 * next successful login.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
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

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, argon2Options());
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export function needsRehash(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, argon2Options());
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
