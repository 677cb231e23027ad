import { phone } from './fields.ts';
import { z } from './zod.ts';

/**
 * A staff member's own mobile phone, verified by a texted code: the only number a broadcast's test text goes to
 * (docs/decisions/152-broadcasts.md). What the Security form sends, what the endpoints answer,
 * and the messages both sides show.
 */

/** Digits of a verification code. */
export const STAFF_PHONE_CODE_DIGITS = 6;
/** A code works this long after it is texted. */
export const STAFF_PHONE_CODE_TTL_MINUTES = 10;
/** Wrong codes before the code dies (a new one must be asked for). */
export const STAFF_PHONE_CODE_ATTEMPTS = 5;
/** Test sends (texts and emails together) one member may make in a campaign day (midnight to midnight, campaign time). */
export const STAFF_TESTS_PER_DAY = 20;

export const STAFF_PHONE_MESSAGES = {
  /** A test text's `to` that is not the member's own verified phone (as the email test refuses another address). */
  testToOwnPhone: 'A test text goes to your own verified phone',
  noVerifiedPhone:
    'A test text goes to your own verified phone: verify your mobile phone under Security first',
  codeFormat: `Enter the ${STAFF_PHONE_CODE_DIGITS}-digit code we texted you`,
  codeWrong: 'That code is not right. Please check it and try again.',
  codeExpired: 'That code has expired. Please ask for a new one.',
  noCode: 'Ask for a code first: enter your mobile number and choose "Text me a code".',
  tooManyWrong: 'Too many wrong codes: that code no longer works. Please ask for a new one.',
  alreadyVerified: 'This is already your verified phone',
  nothingToRemove: 'You have no verified phone',
  numberNotAllowed: 'We cannot text this number (its country or number type is not allowed)',
  optedOut:
    'This number has opted out of the campaign’s texts (STOP). Text START to the campaign’s number, then ask for a code again.',
  notSent: 'The code could not be texted. Please try again.',
  tooManyTests: `You have sent ${STAFF_TESTS_PER_DAY} tests today, the most for one member in a day. Tests can be sent again after midnight, campaign time.`,
} as const;

/** The text that carries the code (the text guard adds the program name and the opt-out line). */
export const staffPhoneCodeText = (code: string) =>
  `Your dashboard verification code is ${code}. It expires in ${STAFF_PHONE_CODE_TTL_MINUTES} minutes. If you did not ask for it, ignore this text.`;

/** POST /api/auth/phone/code: the member's own mobile number. */
export const StaffPhoneCodeSchema = z.strictObject({ phone });

/** POST /api/auth/phone/verify: the code texted to it. */
export const StaffPhoneVerifySchema = z.strictObject({
  code: z
    .string({ error: STAFF_PHONE_MESSAGES.codeFormat })
    .max(32, STAFF_PHONE_MESSAGES.codeFormat)
    .transform((s) => s.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, STAFF_PHONE_MESSAGES.codeFormat)),
});

/** GET /api/auth/phone: the signed-in member's own phone, masked (only its last four digits show). */
export interface StaffPhoneStatus {
  /** The verified phone, masked, or null. */
  phone: string | null;
  verifiedAt: string | null;
  /** A code texted and not yet used: to which number (masked) and until when. */
  pending: { phone: string; expiresAt: string } | null;
  /** Test sends left today (both channels). */
  testsLeftToday: number;
}

/** A phone as staff screens and audit entries show it: only the last four digits. */
export function maskPhone(e164: string): string {
  const last = e164.slice(-4);
  return e164.startsWith('+1') && e164.length === 12 ? `(•••) •••-${last}` : `+•• ••• ${last}`;
}
