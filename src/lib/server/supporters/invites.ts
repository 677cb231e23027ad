import { createHmac, randomInt } from 'node:crypto';
import { derivedKey } from '../derived-keys.ts';
import { env } from '../env.ts';
import { readCookies, respond } from '../http.ts';
import { key } from '../storage/keys.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { normalEmail, normalPhone } from '../people/keys.ts';
import { people } from '../people/person.ts';
import type { StoredContribution } from '../../schemas/donations.ts';
import {
  INVITE_ALPHABET,
  INVITE_CODE_LENGTH,
  INVITE_COOKIE,
  INVITE_COOKIE_DAYS,
  inviteCodeOfRefcode,
  isInviteCode,
} from '../../invite-link.ts';

/**
 * Invite links (docs/decisions/182-supporter-page.md): each supporter's short, unguessable code (`/r/<code>`),
 * revocable by its owner and by staff; a visit sets a first-party cookie for 30 days; the sign-ups that follow are
 * credited on write, once per form and address (a created key), to the owner of a code that is still live, and a
 * donation once per donor when the provider's webhook brings the code back as a refcode. The owner reads counts
 * only.
 */
export { INVITE_ALPHABET, INVITE_CODE_LENGTH, INVITE_COOKIE, INVITE_COOKIE_DAYS, isInviteCode };

/** The forms whose sign-ups are credited (the public forms' ids). */
export const CREDITED_FORMS = ['volunteer', 'text-signup', 'newsletter', 'rsvp', 'vote-plan'] as const;
export type CreditedForm = (typeof CREDITED_FORMS)[number];
/** What an owner is credited for: each form's sign-ups, an RSVP for shifts counted as a shift, and donations. */
export const CREDIT_KINDS = [...CREDITED_FORMS, 'shift', 'donation'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];

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
    // Not HttpOnly: the donate page's script carries the code to the donation provider as a refcode. The code is
    // the owner's shared link, not a credential: it grants nothing, and a revoked one credits nobody.
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

/** An RSVP that picked shifts is a shift sign-up; any other form counts as itself. */
function creditKindOf(form: CreditedForm, input: unknown): CreditKind {
  const slots = input && typeof input === 'object' ? (input as { slots?: unknown }).slots : undefined;
  return form === 'rsvp' && Array.isArray(slots) && slots.length > 0 ? 'shift' : form;
}

/**
 * Credits a stored sign-up to the owner of the visitor's invite cookie, once: `credit/<owner>/<form>-<digest>`
 * created onlyIfNew. A missing, unknown or revoked code credits nobody; a failure never fails the form.
 */
export async function creditInvite(req: Request, form: string, input: unknown, now = new Date()) {
  try {
    if (!isCreditedForm(form)) return false;
    const code = readCookies(req).get(INVITE_COOKIE);
    if (!code) return false;
    const inv = await readInvite(code);
    if (!inv || inv.revokedAt) return false;
    const address = signupAddress(input);
    if (!address) return false;
    return await people().create(
      `${creditPrefix(inv.ownerId)}${creditKindOf(form, input)}-${addressDigest(address)}`,
      {
        form,
        at: now.toISOString(),
      },
    );
  } catch (err) {
    console.error('[invites] could not credit a sign-up', err);
    return false;
  }
}

const isCreditedForm = (form: string): form is CreditedForm =>
  (CREDITED_FORMS as readonly string[]).includes(form);

/**
 * Credits the donations of a contribution notification whose refcode carries a live invite code (the donate page
 * adds it from the invite cookie): once per donor (the ledger's keyed donor hash; without an email, once per
 * order), so a replayed notification or a recurring gift's next instalment counts nothing more. A refund or
 * cancellation credits nothing. A storage failure throws: the webhook answers 5xx and the provider retries.
 */
export async function creditDonations(
  records: readonly StoredContribution[],
  now = new Date(),
): Promise<number> {
  let credited = 0;
  for (const r of records) {
    if (r.status !== 'paid' || r.cancelledAt) continue;
    const code = inviteCodeOfRefcode(r.refcode2);
    if (!code) continue;
    const inv = await readInvite(code);
    if (!inv || inv.revokedAt) continue;
    const donor = r.donorKey ? `donor:${r.donorKey}` : `order:${r.orderNumber}`;
    if (
      await people().create(`${creditPrefix(inv.ownerId)}donation-${addressDigest(donor)}`, {
        form: 'donation',
        at: now.toISOString(),
      })
    )
      credited += 1;
  }
  return credited;
}

/** The owner's counts per form (a listing of their credits: names no one). */
export async function inviteCounts(ownerId: string): Promise<Record<CreditKind, number> & { total: number }> {
  const counts = Object.fromEntries(CREDIT_KINDS.map((f) => [f, 0])) as Record<CreditKind, number>;
  let total = 0;
  for await (const page of people().keys(creditPrefix(ownerId))) {
    for (const k of page) {
      const form = k.slice(creditPrefix(ownerId).length).replace(/-[a-f0-9]{32}$/, '') as CreditKind;
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
