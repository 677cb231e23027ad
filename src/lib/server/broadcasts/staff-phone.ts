import {
  maskPhone,
  STAFF_PHONE_CODE_ATTEMPTS,
  STAFF_PHONE_CODE_TTL_MINUTES,
  STAFF_PHONE_MESSAGES as M,
  staffPhoneCodeText,
  type StaffPhoneStatus,
} from '../../schemas/staff-phone.ts';
import { testsLeftToday } from './test-sends.ts';
import { HttpError } from '../errors.ts';
import { update } from '../storage/compare-and-set.ts';
import { kv } from '../storage/stores.ts';
import { phoneRefusal } from '../texting/phone-policy.ts';
import { sendGuardedText } from '../texting/text-guard.ts';
import { reserveAttempt, type Limit } from '../auth/rate-limit.ts';
import {
  hashPhoneCode,
  newPhoneCode,
  pendingPhoneCode,
  phoneCodeKey,
  type PendingPhoneCode,
} from '../auth/staff-phone-codes.ts';
import { sameHash } from '../auth/totp.ts';
import { changeUser, type StoredUser } from '../auth/users.ts';

/**
 * A staff member's own mobile phone, verified by a texted code (docs/decisions/152-broadcasts.md):
 * the one number a broadcast's test text goes to. The member types a number on the Security page; the site texts a
 * code through the text guard (purpose `staff_phone_code`: STOP, country and number type hold; no list consent, no
 * quiet hours); the member types the code back, and only then is the number stored on the user record. A new number
 * replaces the old only when its own code comes back.
 *
 * Codes: six digits from the CSPRNG, stored as an HMAC, dead after STAFF_PHONE_CODE_TTL_MINUTES or
 * STAFF_PHONE_CODE_ATTEMPTS wrong tries (each try counted before the comparison, so parallel guesses cannot outrun
 * the count), and single use. Codes texted are limited per member and per number (PHONE_CODE_LIMITS).
 */

export const PHONE_CODE_LIMITS = {
  /** Codes one member may ask for in an hour: a typo, a slow text, a second phone. */
  perMember: { max: 5, windowSeconds: 60 * 60 },
  /** Codes texted to one number in a day, whoever asks: a stranger's number typed by staff is texted a few times at most. */
  perNumber: { max: 5, windowSeconds: 24 * 60 * 60 },
} as const satisfies Record<string, Limit>;

const tooManyCodes = (s: number) => {
  const minutes = Math.ceil(s / 60);
  return `Too many codes were asked for. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
};

const TTL_MS = STAFF_PHONE_CODE_TTL_MINUTES * 60_000;

/** The member's own phone as the Security page and the composer show it (masked). */
export async function staffPhoneStatus(user: StoredUser, now = new Date()): Promise<StaffPhoneStatus> {
  const [pending, left] = await Promise.all([pendingPhoneCode(user.id), testsLeftToday(user.id, now)]);
  const live = pending && Date.parse(pending.expiresAt) > now.getTime() ? pending : null;
  return {
    phone: user.phone ? maskPhone(user.phone) : null,
    verifiedAt: user.phone ? user.phoneVerifiedAt : null,
    pending: live ? { phone: maskPhone(live.phone), expiresAt: live.expiresAt } : null,
    testsLeftToday: left,
  };
}

/**
 * Texts a new code to `phone` for this member (a code in flight is replaced). 400 when the number cannot be texted
 * (country or type, STOP) or is already the member's; 429 past the limits.
 */
export async function sendPhoneCode(
  user: StoredUser,
  phone: string,
  now = new Date(),
): Promise<{ phone: string; expiresAt: string }> {
  if (user.phone === phone)
    throw new HttpError(409, M.alreadyVerified, { fields: { phone: M.alreadyVerified } });
  if (phoneRefusal(phone) !== null)
    throw new HttpError(400, M.numberNotAllowed, { fields: { phone: M.numberNotAllowed } });
  await reserveAttempt('staff-phone-codes', `user:${user.id}`, PHONE_CODE_LIMITS.perMember, {
    now: now.getTime(),
    message: tooManyCodes,
  });
  await reserveAttempt('staff-phone-codes-number', phone, PHONE_CODE_LIMITS.perNumber, {
    now: now.getTime(),
    message: tooManyCodes,
  });
  const code = newPhoneCode();
  const pending: PendingPhoneCode = {
    phone,
    codeHash: hashPhoneCode(user.id, phone, code),
    expiresAt: new Date(now.getTime() + TTL_MS).toISOString(),
    attempts: 0,
    createdAt: now.toISOString(),
  };
  // Written before the text: the guard reads it as this text's consent (a code to this very number).
  await kv('auth').put(phoneCodeKey(user.id), pending);
  let sent: Awaited<ReturnType<typeof sendGuardedText>>;
  try {
    sent = await sendGuardedText({
      to: phone,
      body: staffPhoneCodeText(code),
      lang: 'en', // the dashboard is in English
      consent: { purpose: 'staff_phone_code', userId: user.id },
      now,
    });
  } catch (err) {
    await kv('auth').delete(phoneCodeKey(user.id));
    console.error('[staff-phone] the code text failed', err);
    throw new HttpError(502, M.notSent);
  }
  if (!sent.sent) {
    await kv('auth').delete(phoneCodeKey(user.id));
    const message =
      sent.refusal === 'opted_out'
        ? M.optedOut
        : sent.refusal === 'number_not_allowed'
          ? M.numberNotAllowed
          : M.notSent;
    throw new HttpError(400, message, { fields: { phone: message } });
  }
  return { phone: maskPhone(phone), expiresAt: pending.expiresAt };
}

/** A refused code; `dead` when it can no longer be used (expired, or out of tries). */
class CodeRefused extends HttpError {
  readonly dead: boolean;
  constructor(message: string, dead: boolean) {
    super(400, message, { fields: { code: message } });
    this.dead = dead;
  }
}

/**
 * Checks the code the member typed; right, the number becomes their verified phone (the code is spent). Each try is
 * counted on the record before the comparison; the last wrong try, an expired code or none at all is a 400 that
 * says to ask for a new one.
 */
export async function confirmPhoneCode(
  user: StoredUser,
  code: string,
  now = new Date(),
): Promise<{ user: StoredUser; phone: string }> {
  const k = phoneCodeKey(user.id);
  let counted: PendingPhoneCode | null;
  try {
    counted = await update<PendingPhoneCode>(kv('auth'), k, (cur) => {
      if (Date.parse(cur.expiresAt) <= now.getTime()) throw new CodeRefused(M.codeExpired, true);
      if (cur.attempts >= STAFF_PHONE_CODE_ATTEMPTS) throw new CodeRefused(M.tooManyWrong, true);
      return { ...cur, attempts: cur.attempts + 1 };
    });
  } catch (err) {
    if (err instanceof CodeRefused && err.dead) await kv('auth').delete(k);
    throw err;
  }
  if (!counted) throw new HttpError(400, M.noCode, { fields: { code: M.noCode } });
  if (!sameHash(counted.codeHash, hashPhoneCode(user.id, counted.phone, code))) {
    if (counted.attempts >= STAFF_PHONE_CODE_ATTEMPTS) {
      await kv('auth').delete(k);
      throw new CodeRefused(M.tooManyWrong, true);
    }
    throw new CodeRefused(M.codeWrong, false);
  }
  await kv('auth').delete(k);
  const phone = counted.phone;
  const updated = await changeUser(user.id, (u) => ({
    ...u,
    phone,
    phoneVerifiedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  }));
  return { user: updated, phone };
}

/** Forgets the member's verified phone (and any code in flight). 409 when there is none. */
export async function removeStaffPhone(user: StoredUser, now = new Date()): Promise<string> {
  if (!user.phone) throw new HttpError(409, M.nothingToRemove);
  const was = user.phone;
  await changeUser(user.id, (u) => ({
    ...u,
    phone: null,
    phoneVerifiedAt: null,
    updatedAt: now.toISOString(),
  }));
  await kv('auth').delete(phoneCodeKey(user.id));
  return was;
}
