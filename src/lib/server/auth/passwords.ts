import argon2 from 'argon2';

/**
 * Argon2id at OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1). Hashes
 * made with other parameters are re-hashed at the next successful login.
 */
export const ARGON2_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
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
    return argon2.needsRehash(hash, ARGON2_OPTIONS);
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
