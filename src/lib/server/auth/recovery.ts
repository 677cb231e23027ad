import { createHash, randomBytes, randomInt } from 'node:crypto';
import { z } from 'zod';
import type { ForgotPasswordInput, ResetPasswordInput } from '../../schemas/user.ts';
import { ForgotPasswordSchema, ResetPasswordSchema } from '../../schemas/user.ts';
import { sendEmail } from '../adapters/email.ts';
import { env } from '../env.ts';
import { HttpError } from '../errors.ts';
import { key, kv, update } from '../store.ts';
import { dummyVerify, hashPassword } from './passwords.ts';
import { LIMITS, assertNotLimited, recordAttempt } from './rate-limit.ts';
import { changeUser, findUserByEmail } from './users.ts';

export const FORGOT_MESSAGE =
  'If an account with that email exists, a temporary password has been sent to your email address. Please check your inbox and log in with the temporary password.';
export const INVALID_RESET = 'This password reset link is invalid or has expired. Please request a new one.';
export const RECOVERY_TTL_MS = 24 * 60 * 60 * 1000;

const ResetRecordSchema = z.object({
  userId: z.number().int().positive(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
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

/**
 * Issues a temporary password and a reset link for an active account. The
 * answer is identical whether or not the account exists, and even if the
 * email fails. Nothing changes for the account until one of them is used:
 * the old password keeps working. Only hashes are stored.
 */
export async function requestPasswordReset(
  input: ForgotPasswordInput,
  ip: string,
  now = new Date(),
): Promise<string> {
  const { email } = ForgotPasswordSchema.parse(input);
  await assertNotLimited('forgot-ip', ip, LIMITS.forgotIp, now.getTime());
  await assertNotLimited('forgot-account', email, LIMITS.forgotAccount, now.getTime());
  await Promise.all([
    recordAttempt('forgot-ip', ip, LIMITS.forgotIp, now.getTime()),
    recordAttempt('forgot-account', email, LIMITS.forgotAccount, now.getTime()),
  ]);

  const user = await findUserByEmail(email);
  if (!user?.isActive) {
    await dummyVerify('x'); // comparable work to the hashing below
    return FORGOT_MESSAGE;
  }
  const temp = temporaryPassword();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + RECOVERY_TTL_MS).toISOString();
  const tempHash = await hashPassword(temp);
  await kv('auth').create(resetKey(token), {
    userId: user.id,
    expiresAt,
    usedAt: null,
  } satisfies ResetRecord);
  await changeUser(user.id, (u) => ({ ...u, tempPasswordHash: tempHash, tempPasswordExpiresAt: expiresAt }));

  const link = new URL('/reset-password', env().SITE_URL);
  link.searchParams.set('token', token);
  try {
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
        'Both expire in 24 hours and work once. If you did not ask for this, ignore this email: your current password still works.',
      ].join('\n'),
    });
  } catch (err) {
    // Same answer either way; the operator sees the failure in the function log.
    console.error('[forgot-password] email failed:', (err as Error).message);
  }
  return FORGOT_MESSAGE;
}

/** Redeems a reset token once: sets the password, revokes every session, emails a notice. Answers who (for the audit trail). */
export async function resetPassword(
  input: ResetPasswordInput,
  now = new Date(),
): Promise<{ id: number; username: string }> {
  const { token, password } = ResetPasswordSchema.parse(input);
  const k = resetKey(token);
  let record: ResetRecord | null = null;
  const claimed = await update<ResetRecord>(kv('auth'), k, (cur) => {
    const r = ResetRecordSchema.parse(cur);
    if (r.usedAt || Date.parse(r.expiresAt) <= now.getTime()) throw new HttpError(400, INVALID_RESET);
    record = r;
    return { ...r, usedAt: now.toISOString() };
  });
  if (!claimed || !record) throw new HttpError(400, INVALID_RESET);
  const { userId } = record as ResetRecord;
  const passwordHash = await hashPassword(password);
  const user = await changeUser(userId, (u) => ({
    ...u,
    passwordHash,
    tokenVersion: u.tokenVersion + 1,
    mustChangePassword: false,
    tempPasswordHash: null,
    tempPasswordExpiresAt: null,
    updatedAt: now.toISOString(),
  }));
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
