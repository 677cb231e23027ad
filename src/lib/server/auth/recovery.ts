import { createHash, randomBytes, randomInt } from 'node:crypto';
import { z } from 'zod';
import type { ForgotPasswordInput, ResetPasswordInput } from '../../schemas/user.ts';
import { ForgotPasswordSchema, ResetPasswordSchema } from '../../schemas/user.ts';
import { sendEmail } from '../adapters/email.ts';
import { env } from '../env.ts';
import { HttpError } from '../errors.ts';
import { update } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { hashPassword } from './passwords.ts';
import { LIMITS, reserveAttempt, reserveClientAttempt } from './rate-limit.ts';
import { assertStrongPassword } from './password-strength.ts';
import { changeUser, findUserByEmail, getUser, withNewPassword } from './users.ts';

export const FORGOT_MESSAGE =
  'If an account with that email exists, a temporary password has been sent to your email address. Please check your inbox and log in with the temporary password.';
export const INVALID_RESET = 'This password reset link is invalid or has expired. Please request a new one.';
export const RECOVERY_TTL_MS = 24 * 60 * 60 * 1000;

const ResetRecordSchema = z.object({
  userId: z.number().int().positive(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  /** The account's password version when the link was issued: any password event since kills the link. */
  passwordVersion: z.number().int().default(0),
});
type ResetRecord = z.infer<typeof ResetRecordSchema>;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const resetKey = (token: string) => key('reset', tokenHash(token));

/** Readable, unambiguous temporary password from a CSPRNG. */
function temporaryPassword(length = 14): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Runs work after the response has been sent (Netlify `context.waitUntil`), or inline when there is none. */
export type Defer = (work: Promise<unknown>) => void;

/**
 * Forgot-password. The answer is identical whether or not the account exists,
 * and so is the work done before it: validate, reserve the rate-limit
 * attempts, then hand everything that depends on the account (look-up, hashing,
 * storing, the email) to `defer`, which runs it after the response is sent.
 * So neither the body nor the response time tells an attacker whether an email
 * has an account (docs/decisions/160-staff-sign-in-and-sessions.md). Nothing changes for the account until a
 * credential is used: the old password keeps working.
 */
export async function requestPasswordReset(
  input: ForgotPasswordInput,
  ip: string,
  now = new Date(),
  defer?: Defer,
): Promise<string> {
  const { email } = ForgotPasswordSchema.parse(input);
  await reserveClientAttempt('forgot-ip', ip, LIMITS.forgotIp, { now: now.getTime() });
  await reserveAttempt('forgot-account', email, LIMITS.forgotAccount, { now: now.getTime() });
  const work = issueRecovery(email, now).catch((err: unknown) =>
    // Same answer either way; the operator sees the failure in the function log.
    console.error('[forgot-password] could not issue a recovery email:', (err as Error).message),
  );
  if (defer) defer(work);
  else await work;
  return FORGOT_MESSAGE;
}

/**
 * Issues a temporary password and a reset link for an active account, both
 * bound to its current password version; only hashes are stored.
 */
async function issueRecovery(email: string, now: Date): Promise<void> {
  const user = await findUserByEmail(email);
  if (!user?.isActive) return;
  const temp = temporaryPassword();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + RECOVERY_TTL_MS).toISOString();
  const tempHash = await hashPassword(temp);
  await kv('auth').create(resetKey(token), {
    userId: user.id,
    expiresAt,
    usedAt: null,
    passwordVersion: user.passwordVersion,
  } satisfies ResetRecord);
  const updated = await changeUser(user.id, (u) =>
    // A password event happened meanwhile: this recovery is already stale (the link carries the old version).
    u.passwordVersion === user.passwordVersion
      ? { ...u, tempPasswordHash: tempHash, tempPasswordExpiresAt: expiresAt }
      : u,
  );
  if (updated.tempPasswordHash !== tempHash) return;

  const link = new URL('/reset-password', env().SITE_URL);
  link.searchParams.set('token', token);
  await sendEmail({
    to: user.email,
    subject: 'Your temporary password',
    text: [
      `Hello ${user.firstName || user.username},`,
      '',
      'Someone (hopefully you) asked to reset the password for your campaign dashboard account.',
      '',
      `Temporary password: ${temp}`,
      `Username: ${user.username}`,
      '',
      'Log in with it at the dashboard and you will be asked to choose a new password at once.',
      `Or set a new password directly: ${link.toString()}`,
      '',
      'Both expire in 24 hours and work once; using either one, or changing your password, ends the other. If you did not ask for this, ignore this email: your current password still works.',
    ].join('\n'),
  });
}

/** Redeems a reset token once: sets the password, revokes every session, emails a notice. Answers who (for the audit trail). */
export async function resetPassword(
  input: ResetPasswordInput,
  now = new Date(),
): Promise<{ id: number; username: string }> {
  const { token, password } = ResetPasswordSchema.parse(input);
  const k = resetKey(token);
  // A weak password is refused before the link is spent, judged against the account's own words.
  const pending = ResetRecordSchema.safeParse((await kv('auth').get(k))?.value);
  if (!pending.success || pending.data.usedAt || Date.parse(pending.data.expiresAt) <= now.getTime())
    throw new HttpError(400, INVALID_RESET);
  await assertStrongPassword(password, (await getUser(pending.data.userId)) ?? {});
  let record: ResetRecord | null = null;
  const claimed = await update<ResetRecord>(kv('auth'), k, (cur) => {
    const r = ResetRecordSchema.parse(cur);
    if (r.usedAt || Date.parse(r.expiresAt) <= now.getTime()) throw new HttpError(400, INVALID_RESET);
    record = r;
    return { ...r, usedAt: now.toISOString() };
  });
  if (!claimed || !record) throw new HttpError(400, INVALID_RESET);
  const { userId, passwordVersion } = record as ResetRecord;
  const passwordHash = await hashPassword(password);
  const user = await changeUser(userId, (u) => {
    // A newer reset, a password change, an admin-set password or a used temporary password since: dead link.
    if (u.passwordVersion !== passwordVersion) throw new HttpError(400, INVALID_RESET);
    return withNewPassword(u, { passwordHash, mustChangePassword: false }, now);
  });
  await notifyPasswordChanged(user.email, user.firstName || user.username);
  return { id: user.id, username: user.username };
}

export async function notifyPasswordChanged(to: string, name: string): Promise<void> {
  try {
    await sendEmail({
      to,
      subject: 'Your password was changed',
      text: `Hello ${name},\n\nThe password for your campaign dashboard account was just changed, and every signed-in session was signed out.\n\nIf this was not you, contact your campaign administrator at once.`,
    });
  } catch (err) {
    console.error('[password] notice email failed:', (err as Error).message);
  }
}
