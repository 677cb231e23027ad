import { createHmac, randomInt } from 'node:crypto';
import { derivedKey } from '../derived-keys.ts';
import { env } from '../env.ts';
import { readCookies, respond } from '../http.ts';
import { key } from '../storage/keys.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { normalEmail, normalPhone } from '../people/keys.ts';
import { people } from '../people/person.ts';

/**
 * Invite links (docs/decisions/182-supporter-page.md): each supporter's short, unguessable code (`/r/<code>`),
 * revocable by its owner and by staff; a visit sets a first-party cookie for 30 days; the sign-ups that follow are
 * credited on write, once per form and address (a created key), to the owner of a code that is still live. The
 * owner reads counts only.
 */
/** 32 letters and digits, no l, o, 0 or 1: 50 bits in 10 characters. */
export const INVITE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
export const INVITE_CODE_LENGTH = 10;
export const INVITE_COOKIE = 'invite';
export const INVITE_COOKIE_DAYS = 30;
const CODE_RE = new RegExp(`^[${INVITE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

/** The forms whose sign-ups are credited (the public forms' ids). */
export const CREDITED_FORMS = ['volunteer', 'text-signup', 'newsletter', 'rsvp', 'vote-plan'] as const;
export type CreditedForm = (typeof CREDITED_FORMS)[number];

interface Invite {
  code: string;
  ownerId: string;
  createdAt: string;
  revokedAt: string | null;
  revokedBy: 'owner' | 'staff' | null;
}

export const inviteKey = (code: string) => key('invite', code);
export const inviteOfKey = (personId: string) => key('invite-of', personId);
export const creditPrefix = (ownerId: string) => `${key('credit', ownerId)}/`;

export const isInviteCode = (code: string) => CODE_RE.test(code);

function newCode(): string {
  let out = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) out += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return out;
}

export async function readInvite(code: string): Promise<Invite | null> {
  if (!isInviteCode(code)) return null;
  return (await people().get<Invite>(inviteKey(code)))?.value ?? null;
}

/** The owner's live code, made on first use (one per person; a revoked one is replaced by a new one). */
export async function inviteCodeOf(personId: string, now = new Date()): Promise<string> {
  const had = await people().get<{ code: string }>(inviteOfKey(personId));
  if (had) {
    const inv = await readInvite(had.value.code);
    if (inv && !inv.revokedAt) return inv.code;
  }
  for (;;) {
    const code = newCode();
    const created = await people().create(inviteKey(code), {
      code,
      ownerId: personId,
      createdAt: now.toISOString(),
      revokedAt: null,
      revokedBy: null,
    } satisfies Invite);
    if (!created) continue;
    if (had) {
      if (await people().replace(inviteOfKey(personId), { code }, had.etag)) return code;
    } else if (await people().create(inviteOfKey(personId), { code })) return code;
    // Another request made one at the same moment: theirs is the code; this one is withdrawn.
    await people().delete(inviteKey(code));
    return inviteCodeOf(personId, now);
  }
}

/** Revokes a code (its owner from /my, or staff): it credits nobody from then on. */
export async function revokeInvite(code: string, by: 'owner' | 'staff', now = new Date()): Promise<boolean> {
  const cur = await people().get<Invite>(inviteKey(code));
  if (!cur || cur.value.revokedAt) return false;
  return (
    (await people().replace(
      inviteKey(code),
      { ...cur.value, revokedAt: now.toISOString(), revokedBy: by },
      cur.etag,
    )) !== null
  );
}

/** What staff see of a person's invite link: the current code (none made yet: null) and its counts. */
export async function inviteStateOf(personId: string) {
  const had = await people().get<{ code: string }>(inviteOfKey(personId));
  const inv = had ? await readInvite(had.value.code) : null;
  return {
    invite: inv
      ? { code: inv.code, createdAt: inv.createdAt, revokedAt: inv.revokedAt, revokedBy: inv.revokedBy }
      : null,
    counts: await inviteCounts(personId),
  };
}

/** Staff revoke a person's current code (the owner gets a new one on their next visit to /my). */
export async function revokeInviteOf(personId: string, now = new Date()): Promise<string | null> {
  const had = await people().get<{ code: string }>(inviteOfKey(personId));
  if (!had) return null;
  return (await revokeInvite(had.value.code, 'staff', now)) ? had.value.code : null;
}

export function inviteCookie(code: string): string {
  const secure = new URL(env().SITE_URL).protocol === 'https:';
  return [
    `${INVITE_COOKIE}=${code}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${INVITE_COOKIE_DAYS * 24 * 60 * 60}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * GET /r/<code> (src/pages/r/[code].ts, an on-demand route: every function lives under /api/): a visit through an
 * invite link. A live code sets the first-party cookie that credits its owner for 30 days; an unknown or revoked
 * one sets nothing. Either way the visitor lands on the home page, and nothing is written.
 */
export async function inviteVisit(code: string): Promise<Response> {
  const inv = await readInvite(code);
  const headers: Record<string, string> = { Location: '/' };
  if (inv && !inv.revokedAt) headers['Set-Cookie'] = inviteCookie(inv.code);
  return respond(null, { status: 302, headers, cache: 'private, no-store' });
}

/** The keyed hash of the signed-up address: the credit's key, so one sign-up counts once however often posted. */
function addressDigest(address: string): string {
  return createHmac('sha256', derivedKey('invite credit v1')).update(address).digest('hex').slice(0, 32);
}

function signupAddress(input: unknown): string | null {
  if (!input || typeof input !== 'object') return null;
  const r = input as Record<string, unknown>;
  const email = typeof r.email === 'string' ? normalEmail(r.email) : null;
  if (email) return `email:${email}`;
  const phone = typeof r.phone === 'string' ? r.phone.trim() : '';
  if (!phone) return null;
  const e164 = normalPhone(phone) ?? phone.replace(/\D/g, '');
  return `phone:${e164}`;
}

/**
 * Credits a stored sign-up to the owner of the visitor's invite cookie, once: `credit/<owner>/<form>-<digest>`
 * created onlyIfNew. A missing, unknown or revoked code credits nobody; a failure never fails the form.
 */
export async function creditInvite(req: Request, form: string, input: unknown, now = new Date()) {
  try {
    if (!(CREDITED_FORMS as readonly string[]).includes(form)) return false;
    const code = readCookies(req).get(INVITE_COOKIE);
    if (!code) return false;
    const inv = await readInvite(code);
    if (!inv || inv.revokedAt) return false;
    const address = signupAddress(input);
    if (!address) return false;
    return await people().create(`${creditPrefix(inv.ownerId)}${form}-${addressDigest(address)}`, {
      form,
      at: now.toISOString(),
    });
  } catch (err) {
    console.error('[invites] could not credit a sign-up', err);
    return false;
  }
}

/** The owner's counts per form (a listing of their credits: names no one). */
export async function inviteCounts(
  ownerId: string,
): Promise<Record<CreditedForm, number> & { total: number }> {
  const counts = Object.fromEntries(CREDITED_FORMS.map((f) => [f, 0])) as Record<CreditedForm, number>;
  let total = 0;
  for await (const page of people().keys(creditPrefix(ownerId))) {
    for (const k of page) {
      const form = k.slice(creditPrefix(ownerId).length).replace(/-[a-f0-9]{32}$/, '') as CreditedForm;
      if (form in counts) counts[form] += 1;
      total += 1;
    }
  }
  return { ...counts, total };
}

/** Everything of a supporter's invites and credits, removed with "delete my data". */
export async function forgetInvites(personId: string): Promise<number> {
  const ks: string[] = [];
  for await (const page of people().keys(creditPrefix(personId))) ks.push(...page);
  const had = await people().get<{ code: string }>(inviteOfKey(personId));
  const codes: string[] = [];
  for await (const page of people().keys('invite/')) codes.push(...page);
  const owned = await mapLimit(codes, 16, async (k) =>
    (await people().get<Invite>(k))?.value.ownerId === personId ? k : null,
  );
  ks.push(...owned.filter((k): k is string => k !== null));
  if (had) ks.push(inviteOfKey(personId));
  await mapLimit(ks, 16, (k) => people().delete(k));
  return ks.length;
}
