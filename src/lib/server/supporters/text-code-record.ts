import { createHmac } from 'node:crypto';
import { derivedKey } from '../derived-keys.ts';
import { people } from '../people/person.ts';
import { key } from '../storage/keys.ts';

/**
 * The one code in flight per phone for a supporter's sign-in by text (docs/decisions/182-supporter-page.md): stored
 * under a keyed hash of the number, the code itself only as an HMAC. Read by the text guard as the consent of the
 * `supporter_code` text (the number asked for it, seconds ago) and by the verification.
 */
export interface TextCodeRecord {
  personId: string;
  codeHash: string;
  expiresAt: string;
  /** Wrong guesses so far: at SUPPORTER_CODE_MAX_GUESSES the code is gone. */
  guesses: number;
}

const purposeKey = () => derivedKey('supporter text code v1');
export const textCodeKey = (e164: string) =>
  key('textcode', createHmac('sha256', purposeKey()).update(e164).digest('hex').slice(0, 40));
export const codeHash = (e164: string, code: string) =>
  createHmac('sha256', purposeKey()).update(`${e164}\n${code}`).digest('hex');
export const TEXT_CODE_PREFIX = 'textcode/';

/** The live code record for a number (not expired), or null. */
export async function pendingTextCode(e164: string, now = new Date()): Promise<TextCodeRecord | null> {
  const r = await people().get<TextCodeRecord>(textCodeKey(e164));
  return r && Date.parse(r.value.expiresAt) > now.getTime() ? r.value : null;
}
