import { SignJWT, jwtVerify } from 'jose';
import { derivedKey } from '../derived-keys.ts';
import { env } from '../env.ts';
import { readCookies } from '../http.ts';
import { getPerson, type Person } from '../people/person.ts';

/**
 * The supporter session (docs/decisions/182-supporter-page.md): a short JWT with its own audience and a key
 * derived for its own purpose, so it is never a staff session (and a staff cookie is never one of these). Scoped
 * to the supporter's pages (/my and /es/my) and their actions (/api/my); the person is re-read on every request,
 * so "delete my data" ends it.
 */
export const SUPPORTER_SESSION_TTL_SECONDS = 60 * 60;
const AUDIENCE = 'campaign-supporter';
export const SUPPORTER_PATHS = ['/my', '/es/my', '/api/my'] as const;

const secure = () => new URL(env().SITE_URL).protocol === 'https:';
export const supporterCookieName = () => (secure() ? '__Secure-supporter' : 'supporter');
const signingKey = () => derivedKey('supporter session v1');

function cookies(value: string, maxAge: number): string[] {
  return SUPPORTER_PATHS.map((path) =>
    [
      `${supporterCookieName()}=${value}`,
      `Path=${path}`,
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${maxAge}`,
      ...(secure() ? ['Secure'] : []),
    ].join('; '),
  );
}

export async function supporterCookies(personId: string): Promise<string[]> {
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(personId)
    .setIssuer(new URL(env().SITE_URL).origin)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SUPPORTER_SESSION_TTL_SECONDS}s`)
    .sign(signingKey());
  return cookies(jwt, SUPPORTER_SESSION_TTL_SECONDS);
}

export const clearSupporterCookies = () => cookies('', 0);

/** The signed-in supporter (the person, re-read), or null. */
export async function currentSupporter(req: Request): Promise<Person | null> {
  const token = readCookies(req).get(supporterCookieName());
  if (!token || token.length > 4096) return null;
  let sub: string | undefined;
  try {
    ({
      payload: { sub },
    } = await jwtVerify(token, signingKey(), {
      algorithms: ['HS256'],
      issuer: new URL(env().SITE_URL).origin,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch {
    return null;
  }
  if (!sub || !/^[a-f0-9]{32}$/.test(sub)) return null;
  const p = await getPerson(sub);
  return p && !p.value.mergedInto ? p.value : null;
}
