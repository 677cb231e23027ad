import type { LoginInput } from '../../schemas/user.ts';
import { LoginSchema } from '../../schemas/user.ts';
import { HttpError } from '../errors.ts';
import { dummyVerify, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { LIMITS, assertNotLimited, recordAttempt, resetAttempts } from './rate-limit.ts';
import { changeUser, findUserByLogin, type StoredUser } from './users.ts';

export const INVALID_CREDENTIALS = 'Invalid credentials';

/**
 * Checks credentials. Unknown user, wrong password and inactive account all
 * answer the same 401 after a comparable amount of hashing work. Failures are
 * counted per account and per IP; past the limit even the right password gets 429.
 * A valid temporary password signs in once and forces a password change.
 */
export async function login(input: LoginInput, ip: string, now = new Date()): Promise<StoredUser> {
  const { username, password } = LoginSchema.parse(input);
  const account = username.toLowerCase();
  await assertNotLimited('login-ip', ip, LIMITS.loginIp, now.getTime());
  await assertNotLimited('login-account', account, LIMITS.loginAccount, now.getTime());

  const fail = async (): Promise<never> => {
    await Promise.all([
      recordAttempt('login-ip', ip, LIMITS.loginIp, now.getTime()),
      recordAttempt('login-account', account, LIMITS.loginAccount, now.getTime()),
    ]);
    throw new HttpError(401, INVALID_CREDENTIALS);
  };

  const user = await findUserByLogin(account);
  if (!user) {
    await dummyVerify(password);
    return fail();
  }
  let usedTemporary = false;
  let ok = await verifyPassword(user.passwordHash, password);
  const tempHash = user.tempPasswordHash;
  if (
    !ok &&
    tempHash &&
    user.tempPasswordExpiresAt &&
    Date.parse(user.tempPasswordExpiresAt) > now.getTime()
  ) {
    ok = await verifyPassword(tempHash, password);
    usedTemporary = ok;
  }
  if (!ok || !user.isActive) return fail();

  await resetAttempts('login-account', account);
  const rehash = !usedTemporary && needsRehash(user.passwordHash) ? await hashPassword(password) : null;
  return changeUser(user.id, (u) => {
    // Single use: a concurrent login already consumed this temporary password.
    if (usedTemporary && u.tempPasswordHash !== tempHash) throw new HttpError(401, INVALID_CREDENTIALS);
    return {
      ...u,
      lastLogin: now.toISOString(),
      passwordHash: rehash ?? u.passwordHash,
      ...(usedTemporary
        ? { tempPasswordHash: null, tempPasswordExpiresAt: null, mustChangePassword: true }
        : {}),
    };
  });
}
