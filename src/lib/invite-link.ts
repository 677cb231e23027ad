/**
 * A supporter's invite link, the facts both sides need (docs/decisions/182-supporter-page.md): the code's shape,
 * the first-party cookie a visit through `/r/<code>` sets, and the refcode that carries the code to the donation
 * provider and back through its webhook (`refcode2`, which no campaign link of this site uses).
 */

/** 32 letters and digits, no l, o, 0 or 1: 50 bits in 10 characters. */
export const INVITE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
export const INVITE_CODE_LENGTH = 10;
export const INVITE_COOKIE = 'invite';
export const INVITE_COOKIE_DAYS = 30;
const CODE_RE = new RegExp(`^[${INVITE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

export const isInviteCode = (code: string) => CODE_RE.test(code);

/** The provider's refcode parameter that carries the invite. */
export const INVITE_REFCODE_PARAM = 'refcode2';
const REFCODE_PREFIX = 'invite_';

/** The refcode of a code (`invite_<code>`), as the donation link carries it. */
export const inviteRefcode = (code: string) => `${REFCODE_PREFIX}${code}`;

/** The code an `invite_<code>` refcode carries, or null for any other refcode. */
export function inviteCodeOfRefcode(refcode: string | null | undefined): string | null {
  if (!refcode?.startsWith(REFCODE_PREFIX)) return null;
  const code = refcode.slice(REFCODE_PREFIX.length);
  return isInviteCode(code) ? code : null;
}

/** The invite code in a `document.cookie` string, or null. */
export function inviteCodeOfCookies(cookies: string): string | null {
  for (const part of cookies.split(';')) {
    const [name, value = ''] = part.trim().split('=');
    if (name === INVITE_COOKIE && isInviteCode(value)) return value;
  }
  return null;
}
