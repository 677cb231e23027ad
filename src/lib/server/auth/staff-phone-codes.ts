import { createHmac, randomInt } from 'node:crypto';
import { z } from 'zod';
import { STAFF_PHONE_CODE_DIGITS } from '../../schemas/staff-phone.ts';
import { derivedKey } from '../derived-keys.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/**
 * The code texted to a member's phone while it is being verified (docs/decisions/152-broadcasts.md),
 * one record per member in store `auth` (`phone-code/<user id>`): the number it was texted to, the code's HMAC (never
 * the code), when it expires and how many tries it has had. Kept apart from the flow (staff-phone.ts) because the text
 * guard reads it as the consent of a code text (the member asked for a code to this very number), and the flow
 * imports the guard.
 */
export const PendingPhoneCodeSchema = z.object({
  phone: z.string(),
  codeHash: z.string(),
  expiresAt: z.string(),
  /** Tries counted before each comparison (reserve, then verify): the code dies at STAFF_PHONE_CODE_ATTEMPTS. */
  attempts: z.number().int().min(0),
  createdAt: z.string(),
});
export type PendingPhoneCode = z.infer<typeof PendingPhoneCodeSchema>;

export const phoneCodeKey = (userId: number) => key('phone-code', userId);

/** The member's code in flight, read strongly; null when none (or unreadable). */
export async function pendingPhoneCode(userId: number): Promise<PendingPhoneCode | null> {
  const r = await kv('auth').get<unknown>(phoneCodeKey(userId));
  const parsed = r ? PendingPhoneCodeSchema.safeParse(r.value) : null;
  return parsed?.success ? parsed.data : null;
}

/** A new random code (CSPRNG), six digits with leading zeros. */
export function newPhoneCode(): string {
  return String(randomInt(0, 10 ** STAFF_PHONE_CODE_DIGITS)).padStart(STAFF_PHONE_CODE_DIGITS, '0');
}

/**
 * The code's HMAC under a key derived from SESSION_SECRET, bound to the member and the number: a copy of the store
 * alone cannot try the million codes offline, and a code for one number or member proves nothing for another.
 */
export function hashPhoneCode(userId: number, phone: string, code: string): string {
  return createHmac('sha256', derivedKey('campaign staff phone codes v1'))
    .update(`${userId}\n${phone}\n${code}`)
    .digest('hex');
}
