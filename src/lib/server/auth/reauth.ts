import { HttpError } from '../errors.ts';
import { lockoutSubject } from './login.ts';
import { verifyPassword } from './passwords.ts';
import { LIMITS, reserveAttempt, tooManyRequests, type Attempt } from './rate-limit.ts';
import { clearSessionCookie } from './session.ts';
import { isEnrolled, matchesSecondFactor, spendSecondFactor, type SecondFactorMethod } from './two-factor.ts';
import { changeUser, type StoredUser } from './users.ts';

/**
 * Re-authentication inside a session: the check in front of every sensitive
 * change (a password change, two-factor on or off, new recovery codes).
 * Design: docs/decisions/160-staff-sign-in-and-sessions.md.
 *
 * - One lockout with sign-in: each check reserves an attempt on the account's
 *   sign-in counter (`login-account`, `user:<id>`, LIMITS.loginAccount) before
 *   any password is verified, so guesses in a session and at the sign-in form
 *   add up, and parallel guesses cannot outrun the count (rate-limit.ts).
 * - Past the limit, 429 with Retry-After for every answer, right password or
 *   wrong, and the account's sessions are revoked (token version): a stolen
 *   session that guesses is a lost session. The failure that uses up the
 *   window answers the same 429 at once.
 * - With two-factor on, a current code or a recovery code is needed too, and a
 *   failure says the same thing whichever of the two was wrong.
 */

export const REAUTH_MESSAGES = {
  passwordIncorrect: 'Current password is incorrect',
  passwordOrCodeIncorrect: 'The current password or the code is incorrect. Please check both and try again.',
  codeNeeded: 'Enter a code from your authenticator app or one recovery code',
  locked: (retryAfterSeconds: number) => {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    return `Too many attempts. For your security you have been signed out. Please sign in again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  },
} as const;

export interface ReauthInput {
  password: string;
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

export interface ReauthOptions {
  /** The request's name for the password field (its error goes there). */
  passwordField: string;
  /** Runs once when this check signs the account out (the handler's audit entry). */
  onLockout?: () => Promise<unknown>;
  now?: Date;
}

/** The locked answer: sessions revoked, this browser's cookie cleared, and a flag the dashboard signs out on. */
async function lockedOut(user: StoredUser, retryAfterSeconds: number, options: ReauthOptions) {
  await changeUser(user.id, (u) => ({ ...u, tokenVersion: u.tokenVersion + 1 }));
  await options.onLockout?.().catch((err: unknown) => console.error('[reauth] audit failed', err));
  const e = tooManyRequests(retryAfterSeconds, REAUTH_MESSAGES.locked);
  return new HttpError(
    e.status,
    e.message,
    { signedOut: true },
    {
      ...e.headers,
      'Set-Cookie': clearSessionCookie(),
    },
  );
}

/**
 * Checks the signed-in user's current password (and, with two-factor on, a
 * code, spent on success). Answers the factor used, or null without two-factor.
 * Throws 400 when wrong, 429 (and signs the account out) past the limit.
 */
export async function reauthenticate(
  user: StoredUser,
  input: ReauthInput,
  options: ReauthOptions,
): Promise<SecondFactorMethod | null> {
  const now = options.now ?? new Date();
  const enrolled = await isEnrolled(user.id);
  // A missing code is a form error, not a guess: refused before counting (it says nothing about the password).
  if (enrolled && input.code === undefined && input.recoveryCode === undefined)
    throw new HttpError(400, REAUTH_MESSAGES.codeNeeded, { fields: { code: REAUTH_MESSAGES.codeNeeded } });

  let attempt: Attempt;
  try {
    attempt = await reserveAttempt('login-account', lockoutSubject(user, ''), LIMITS.loginAccount, {
      now: now.getTime(),
    });
  } catch (err) {
    if (err instanceof HttpError && err.status === 429)
      throw await lockedOut(user, Number(err.headers['Retry-After'] ?? 60), options);
    throw err;
  }

  const passwordOk = await verifyPassword(user.passwordHash, input.password);
  let method: SecondFactorMethod | null = null;
  if (enrolled) {
    // A wrong password still looks the code up (read only, nothing spent): the same work either way.
    if (passwordOk) method = await spendSecondFactor(user.id, input, now);
    else await matchesSecondFactor(user.id, input, now);
  }
  if (passwordOk && (!enrolled || method !== null)) {
    await attempt.clear();
    return method;
  }
  if (attempt.remaining === 0)
    throw await lockedOut(user, (attempt.windowEndsAt - now.getTime()) / 1000, options);
  const message = enrolled ? REAUTH_MESSAGES.passwordOrCodeIncorrect : REAUTH_MESSAGES.passwordIncorrect;
  throw new HttpError(400, message, {
    fields: enrolled
      ? { [options.passwordField]: message, code: message }
      : { [options.passwordField]: 'Incorrect' },
  });
}
