import { SignJWT, jwtVerify } from 'jose';
import { IDENTITY } from '../../../content/identity.ts';
import {
  TWO_FACTOR_MESSAGES,
  TwoFactorPolicySchema,
  type TwoFactorPolicy,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../schemas/two-factor.ts';
import { z } from 'zod';
import { env, sessionSecret } from '../env.ts';
import { readCookies } from '../http.ts';
import { HttpError } from '../errors.ts';
import { update, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import { LIMITS, reserveAttempt, reserveClientAttempt } from './rate-limit.ts';
import {
  hashRecoveryCode,
  matchTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  openSecret,
  otpauthUri,
  sameHash,
  sealSecret,
} from './totp.ts';
import { changeUser, getUser, type StoredUser } from './users.ts';

/**
 * Two-factor sign-in (docs/decisions/160-staff-sign-in-and-sessions.md), kept apart from the password login
 * (login.ts) so the two evolve separately. Store `auth`:
 * - `2fa/<user id>`: the enabled factor (sealed secret, last used time step,
 *   recovery-code HMACs). Its existence is what "enabled" means.
 * - `2fa-pending/<user id>`: a secret shown during enrolment, until the
 *   first code confirms it.
 * - `settings/two-factor`: who must use it.
 * Design: docs/decisions/160-staff-sign-in-and-sessions.md.
 */

const FactorSchema = z.object({
  secret: z.string(),
  enabledAt: z.string(),
  /** The last TOTP time step accepted: a code at or before it is refused (no replay). */
  lastStep: z.number().int(),
  recoveryHashes: z.array(z.string()),
});
type Factor = z.infer<typeof FactorSchema>;

const PendingSchema = z.object({ secret: z.string(), createdAt: z.string() });

const auth = (): KV => kv('auth');
const factorKey = (userId: number) => key('2fa', userId);
const pendingKey = (userId: number) => key('2fa-pending', userId);
const POLICY_KEY = key('settings', 'two-factor');
/** An enrolment not confirmed within this long starts over. */
const PENDING_TTL_MS = 15 * 60 * 1000;

const DEFAULT_POLICY: TwoFactorPolicy = { requireForAdmins: false, requireForAllStaff: false };

async function getFactor(userId: number): Promise<Factor | null> {
  const r = await auth().get<unknown>(factorKey(userId));
  const parsed = r ? FactorSchema.safeParse(r.value) : null;
  return parsed?.success ? parsed.data : null;
}

export async function isEnrolled(userId: number): Promise<boolean> {
  return (await getFactor(userId)) !== null;
}

/** Ids of every member with two-factor on (key names only, no record reads). */
export async function enrolledUserIds(): Promise<number[]> {
  const ids: number[] = [];
  for await (const page of auth().keys('2fa/')) {
    for (const k of page) {
      const n = Number(k.slice('2fa/'.length));
      if (Number.isSafeInteger(n) && n > 0) ids.push(n);
    }
  }
  return ids.sort((a, b) => a - b);
}

export async function getPolicy(): Promise<TwoFactorPolicy> {
  const r = await auth().get<unknown>(POLICY_KEY);
  const parsed = r ? TwoFactorPolicySchema.safeParse(r.value) : null;
  return parsed?.success ? parsed.data : DEFAULT_POLICY;
}

export async function setPolicy(
  policy: TwoFactorPolicy,
): Promise<{ before: TwoFactorPolicy; after: TwoFactorPolicy }> {
  const before = await getPolicy();
  const after = await upsert<TwoFactorPolicy>(auth(), POLICY_KEY, () => policy);
  return { before, after };
}

export function isRequiredFor(user: Pick<StoredUser, 'role'>, policy: TwoFactorPolicy): boolean {
  return policy.requireForAllStaff || (policy.requireForAdmins && user.role === 'admin');
}

export async function twoFactorStatus(user: StoredUser): Promise<TwoFactorStatus> {
  const [factor, policy] = await Promise.all([getFactor(user.id), getPolicy()]);
  return {
    enabled: factor !== null,
    required: isRequiredFor(user, policy),
    recoveryCodesLeft: factor?.recoveryHashes.length ?? 0,
  };
}

/**
 * requireUser's policy check: a member the policy covers who has not
 * enrolled may use only the enrolment endpoints (403 with
 * `twoFactorSetupRequired`, which sends the dashboard to the enrolment screen).
 */
export async function assertTwoFactorPolicy(user: StoredUser): Promise<void> {
  const policy = await getPolicy();
  if (!isRequiredFor(user, policy)) return;
  if (await isEnrolled(user.id)) return;
  throw new HttpError(403, TWO_FACTOR_MESSAGES.setupRequired, { twoFactorSetupRequired: true });
}

// ---------------------------------------------------------------------------
// Enrolment

/** Starts (or restarts) enrolment: a new secret, shown once as a QR code and as text. */
export async function startEnrolment(user: StoredUser, now = new Date()): Promise<TwoFactorSetup> {
  if (await isEnrolled(user.id)) throw new HttpError(409, 'Two-factor sign-in is already on');
  const secret = newTotpSecret();
  await auth().put(pendingKey(user.id), { secret: sealSecret(secret), createdAt: now.toISOString() });
  return { secret, otpauthUri: otpauthUri(secret, user.username, IDENTITY.smsProgramName) };
}

/**
 * Confirms enrolment with a first code; answers the ten recovery codes (shown
 * once, stored as HMACs) and the user with the token version moved on: every
 * session from before the factor existed is signed out (the caller re-issues
 * its own cookie). docs/decisions/160-staff-sign-in-and-sessions.md
 */
export async function confirmEnrolment(
  user: StoredUser,
  code: string,
  now = new Date(),
): Promise<{ recoveryCodes: string[]; user: StoredUser }> {
  const r = await auth().get<unknown>(pendingKey(user.id));
  const pending = r ? PendingSchema.safeParse(r.value) : null;
  const secret = pending?.success ? openSecret(pending.data.secret) : null;
  if (!pending?.success || !secret || now.getTime() - Date.parse(pending.data.createdAt) > PENDING_TTL_MS)
    throw new HttpError(400, 'The set-up has expired. Please start again.');
  const step = matchTotpStep(secret, code, now.getTime());
  if (step === null)
    throw new HttpError(400, TWO_FACTOR_MESSAGES.invalidCode, {
      fields: { code: TWO_FACTOR_MESSAGES.invalidCode },
    });
  const codes = newRecoveryCodes();
  const factor: Factor = {
    secret: sealSecret(secret),
    enabledAt: now.toISOString(),
    lastStep: step,
    recoveryHashes: codes.map(hashRecoveryCode),
  };
  if (!(await auth().create(factorKey(user.id), factor)))
    throw new HttpError(409, 'Two-factor sign-in is already on');
  await auth().delete(pendingKey(user.id));
  const updated = await changeUser(user.id, (u) => ({
    ...u,
    tokenVersion: u.tokenVersion + 1,
    updatedAt: now.toISOString(),
  }));
  return { recoveryCodes: codes, user: updated };
}

/** Ten new recovery codes in place of the old ones (which stop working at once); answers them once. */
export async function replaceRecoveryCodes(userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  const next = await update<unknown>(auth(), factorKey(userId), (cur) => ({
    ...FactorSchema.parse(cur),
    recoveryHashes: codes.map(hashRecoveryCode),
  }));
  if (!next) throw new HttpError(409, TWO_FACTOR_MESSAGES.alreadyOff);
  return codes;
}

// ---------------------------------------------------------------------------
// Checking a second factor

export type SecondFactorMethod = 'totp' | 'recovery';

/**
 * Checks a code or a recovery code and spends it in the same compare-and-set
 * write: a TOTP step at or before the last accepted one is refused, and a
 * recovery code's hash is removed. Two concurrent uses of one code: one wins.
 * Returns null when the factor does not match.
 */
export async function spendSecondFactor(
  userId: number,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
  now = new Date(),
): Promise<SecondFactorMethod | null> {
  let method: SecondFactorMethod | null = null;
  const refused = new Error('refused');
  try {
    const next = await update<unknown>(auth(), factorKey(userId), (cur) => {
      const factor = FactorSchema.parse(cur);
      method = null;
      if (input.code !== undefined) {
        const secret = openSecret(factor.secret);
        const step = secret ? matchTotpStep(secret, input.code, now.getTime()) : null;
        if (step === null || step <= factor.lastStep) throw refused;
        method = 'totp';
        return { ...factor, lastStep: step };
      }
      const hash = hashRecoveryCode(input.recoveryCode ?? '');
      const i = factor.recoveryHashes.findIndex((h) => sameHash(h, hash));
      if (i < 0) throw refused;
      method = 'recovery';
      return { ...factor, recoveryHashes: factor.recoveryHashes.filter((_, j) => j !== i) };
    });
    return next ? method : null;
  } catch (err) {
    if (err === refused) return null;
    throw err;
  }
}

/**
 * Whether a code or recovery code matches, without spending it (no write).
 * Re-authentication runs it when the password was wrong, so a wrong password
 * costs the same store work as a right one with a wrong code and spends nothing.
 */
export async function matchesSecondFactor(
  userId: number,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
  now = new Date(),
): Promise<boolean> {
  const factor = await getFactor(userId);
  if (!factor) return false;
  if (input.code !== undefined) {
    const secret = openSecret(factor.secret);
    const step = secret ? matchTotpStep(secret, input.code, now.getTime()) : null;
    return step !== null && step > factor.lastStep;
  }
  const hash = hashRecoveryCode(input.recoveryCode ?? '');
  return factor.recoveryHashes.some((h) => sameHash(h, hash));
}

/**
 * The code step of a sign-in: limited per
 * account and per IP like the password (LIMITS.loginAccount / loginIp), and
 * a refused code counts as a failure.
 */
export async function checkSecondFactor(
  user: Pick<StoredUser, 'id'>,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
  ip: string,
  now = new Date(),
): Promise<SecondFactorMethod | null> {
  const account = String(user.id);
  // Reserve before checking (as the password does, login.ts): parallel guesses cannot outrun the count.
  const at = now.getTime();
  const ipAttempt = await reserveClientAttempt('2fa-ip', ip, LIMITS.loginIp, { now: at });
  const accountAttempt = await reserveAttempt('2fa-account', account, LIMITS.loginAccount, { now: at });
  const method = await spendSecondFactor(user.id, input, now);
  if (!method) return null;
  await Promise.all([accountAttempt.clear(), ipAttempt.release()]);
  return method;
}

/** Removes the second factor (own, after password + code; or an admin's reset). Signs the member out everywhere. */
export async function removeFactor(userId: number): Promise<StoredUser> {
  await auth().delete(factorKey(userId));
  await auth().delete(pendingKey(userId));
  return changeUser(userId, (u) => ({
    ...u,
    tokenVersion: u.tokenVersion + 1,
    updatedAt: new Date().toISOString(),
  }));
}

// ---------------------------------------------------------------------------
// The pending sign-in between the password and the code: a short-lived signed
// cookie (never a session), bound to the user's token version.

const PENDING_AUDIENCE = 'campaign-2fa-pending';
export const PENDING_SIGN_IN_SECONDS = 5 * 60;

const secureSite = () => new URL(env().SITE_URL).protocol === 'https:';
export const pendingCookieName = () => (secureSite() ? '__Host-twofactor' : 'twofactor');
const pendingAttributes = (maxAge: number) =>
  ['Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAge}`, ...(secureSite() ? ['Secure'] : [])].join(
    '; ',
  );

export async function pendingSignInCookie(user: Pick<StoredUser, 'id' | 'tokenVersion'>): Promise<string> {
  const jwt = await new SignJWT({ ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(user.id))
    .setIssuer(new URL(env().SITE_URL).origin)
    .setAudience(PENDING_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${PENDING_SIGN_IN_SECONDS}s`)
    .sign(sessionSecret());
  return `${pendingCookieName()}=${jwt}; ${pendingAttributes(PENDING_SIGN_IN_SECONDS)}`;
}

/** The user whose password was accepted in the last 5 minutes, or a 401. */
export async function pendingSignInUser(req: Request): Promise<StoredUser> {
  const token = readCookies(req).get(pendingCookieName());
  const expired = new HttpError(401, TWO_FACTOR_MESSAGES.expired, { twoFactorExpired: true });
  if (!token || token.length > 4096) throw expired;
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, sessionSecret(), {
      algorithms: ['HS256'],
      issuer: new URL(env().SITE_URL).origin,
      audience: PENDING_AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch {
    throw expired;
  }
  const user = await getUser(Number(claims.sub));
  if (!user || !user.isActive || user.tokenVersion !== claims.ver) throw expired;
  return user;
}
