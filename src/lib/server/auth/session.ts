import { SignJWT, jwtVerify } from 'jose';
import { hasPermission, type Permission } from '../../schemas/permissions.ts';
import { env, sessionSecret } from '../env.ts';
import { readCookies, requireSameOrigin } from '../http.ts';
import { HttpError } from '../errors.ts';
import { assertTwoFactorPolicy } from './two-factor.ts';
import { getUser, type StoredUser } from './users.ts';

/** Sessions last a working day; the token version revokes them sooner. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;
const AUDIENCE = 'campaign-admin';

function isSecureSite(): boolean {
  return new URL(env().SITE_URL).protocol === 'https:';
}

/** `__Host-` pins the cookie to this origin, Secure and Path=/ (not possible over local http). */
export function sessionCookieName(): string {
  return isSecureSite() ? '__Host-session' : 'session';
}

function cookieAttributes(maxAge: number): string {
  return [
    `Path=/`,
    `HttpOnly`,
    `SameSite=Lax`,
    `Max-Age=${maxAge}`,
    ...(isSecureSite() ? ['Secure'] : []),
  ].join('; ');
}

export async function createSessionCookie(user: Pick<StoredUser, 'id' | 'tokenVersion'>): Promise<string> {
  const jwt = await new SignJWT({ ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(user.id))
    .setIssuer(new URL(env().SITE_URL).origin)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(sessionSecret());
  return `${sessionCookieName()}=${jwt}; ${cookieAttributes(SESSION_TTL_SECONDS)}`;
}

export function clearSessionCookie(): string {
  return `${sessionCookieName()}=; ${cookieAttributes(0)}`;
}

/**
 * The signed-in user, re-read from the store on every request (strong
 * consistency), or null. Roles come from that fresh record, never the token.
 */
export async function currentUser(req: Request): Promise<StoredUser | null> {
  const token = readCookies(req).get(sessionCookieName());
  if (!token || token.length > 4096) return null;
  // Outside the try: a refused secret is a configuration fault (503), not a bad token.
  const secret = sessionSecret();
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      issuer: new URL(env().SITE_URL).origin,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch {
    return null;
  }
  const id = Number(claims.sub);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const user = await getUser(id);
  if (!user || !user.isActive || user.tokenVersion !== claims.ver) return null;
  return user;
}

export interface RequireOptions {
  /** Permission name of spec section 6 (default view_admin). */
  permission?: Permission | 'edit_content';
  /** Allow a user who must still change a temporary password (only the change-password endpoint). */
  allowPasswordChangePending?: boolean;
  /** Allow a member the two-factor policy covers who has not enrolled yet (only the enrolment endpoints). */
  allowTwoFactorSetup?: boolean;
}

/**
 * Deny by default: 401 without a valid session, 403 without the permission.
 * State-changing requests must also be same-origin (CSRF).
 */
export async function requireUser(req: Request, options: RequireOptions = {}): Promise<StoredUser> {
  requireSameOrigin(req);
  const user = await currentUser(req);
  if (!user) throw new HttpError(401, 'Authentication required');
  if (user.mustChangePassword && !options.allowPasswordChangePending) {
    throw new HttpError(403, 'Please change your temporary password first', { mustChangePassword: true });
  }
  // A member the two-factor policy covers enrols before anything else (a password change comes first).
  if (!options.allowTwoFactorSetup && !options.allowPasswordChangePending) await assertTwoFactorPolicy(user);
  if (!userMay(user, options.permission ?? 'view_admin'))
    throw new HttpError(403, "You don't have permission to do that");
  return user;
}

/** Whether a signed-in member has a permission (`edit_content`: editors and admins). */
export function userMay(user: StoredUser, permission: NonNullable<RequireOptions['permission']>): boolean {
  return permission === 'edit_content'
    ? hasPermission(user, 'edit_metrics')
    : hasPermission(user, permission);
}
