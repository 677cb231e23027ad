import type { LoginInput } from '../../schemas/user.ts';
import { INVALID_CREDENTIALS, LoginSchema } from '../../schemas/user.ts';
import { HttpError } from '../errors.ts';
import { dummyVerify, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { LIMITS, reserveAttempt, reserveClientAttempt } from './rate-limit.ts';
import { changeUser, findUserByLogin, withNewPassword, type StoredUser } from './users.ts';

export { INVALID_CREDENTIALS };

/**
 * The lockout subject of a sign-in: the account's id when the name or email
 * resolves to one (so username and email share one counter), else the typed
 * name (unknown names are limited alike, so a 429 says nothing about existence).
 */
export function lockoutSubject(user: Pick<StoredUser, 'id'> | null, typed: string): string {
  return user ? `user:${user.id}` : `name:${typed.trim().toLowerCase()}`;
}

/**
 * Checks credentials. Unknown user, wrong password and inactive account all
 * answer the same 401 after a comparable amount of hashing work.
 *
 * Lockout holds under parallel guesses (docs/decisions/151-texting.md): the account is resolved
 * first, then one attempt is reserved per client IP and per account with a
 * compare-and-set write *before* any password is verified. Past the limit the
 * answer is 429 without verifying, even for the right password, until the
 * window ends. A success clears the account's window and gives the IP its
 * attempt back. A valid temporary password signs in once and forces a change.
 */
export async function login(input: LoginInput, ip: string, now = new Date()): Promise<StoredUser> {
  const { username, password } = LoginSchema.parse(input);
  const identifier = username.toLowerCase();
  const at = now.getTime();
  const ipAttempt = await reserveClientAttempt('login-ip', ip, LIMITS.loginIp, { now: at });
  const user = await findUserByLogin(identifier);
  const accountAttempt = await reserveAttempt(
    'login-account',
    lockoutSubject(user, identifier),
    LIMITS.loginAccount,
    { now: at },
  );

  if (!user) {
    await dummyVerify(password);
    throw new HttpError(401, INVALID_CREDENTIALS);
  }
  let usedTemporary = false;
  let ok = await verifyPassword(user.passwordHash, password);
  const tempHash = user.tempPasswordHash;
  if (!ok && tempHash && user.tempPasswordExpiresAt && Date.parse(user.tempPasswordExpiresAt) > at) {
    ok = await verifyPassword(tempHash, password);
    usedTemporary = ok;
  }
  if (!ok || !user.isActive) throw new HttpError(401, INVALID_CREDENTIALS);

  await Promise.all([accountAttempt.clear(), ipAttempt.release()]);
  const rehash =
    !usedTemporary && (await needsRehash(user.passwordHash)) ? await hashPassword(password) : null;
  return changeUser(user.id, (u) => {
    // Single use: a concurrent login or a password event already consumed this temporary password.
    if (usedTemporary && u.tempPasswordHash !== tempHash) throw new HttpError(401, INVALID_CREDENTIALS);
    const signedIn = { ...u, lastLogin: now.toISOString() };
    // Using the temporary password is a password event: earlier reset links die with it.
    if (usedTemporary)
      return withNewPassword(signedIn, { passwordHash: u.passwordHash, mustChangePassword: true }, now);
    return { ...signedIn, passwordHash: rehash ?? u.passwordHash };
  });
}
