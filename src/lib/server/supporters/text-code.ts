import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Lang } from '../../lang.ts';
import { toE164 } from '../../schemas/fields.ts';
import { reserveAttempt, reserveClientAttempt, type Limit } from '../auth/rate-limit.ts';
import type { Defer } from '../auth/recovery.ts';
import { HttpError } from '../errors.ts';
import { lookupKey } from '../people/keys.ts';
import { getPerson, people } from '../people/person.ts';
import { registerConsentReader, sendGuardedText } from '../texting/text-guard.ts';
import { SUPPORTER_COPY } from '../../../content/supporter-page.ts';
import { codeHash, pendingTextCode, textCodeKey, type TextCodeRecord } from './text-code-record.ts';

// The guard's consent for a sign-in code: a live code for this very number is in flight (texting/ sits below
// supporters/: docs/decisions/153-storage.md).
registerConsentReader('supporter_code', async (_consent, to) => (await pendingTextCode(to)) !== null);

/**
 * A sign-in code by text (docs/decisions/182-supporter-page.md), for a supporter who would rather use their phone
 * than their email: six digits from the CSPRNG, stored only as an HMAC, one code in flight per number (a new one
 * replaces it), 10 minutes, single use, five wrong guesses and it is gone. The request answers the same whether
 * or not the campaign knows the number, after the same work (validate, reserve the limits); the look-up, the code
 * and the text run after the response, and the text goes through the text guard (`supporter_code`: STOP, the
 * number's country and type, its texts a day and the site's daily cap all hold).
 */
export const TEXT_CODE_DIGITS = 6;
export const TEXT_CODE_TTL_MS = 10 * 60 * 1000;
export const TEXT_CODE_MAX_GUESSES = 5;
export const TEXT_CODE_LIMITS = {
  /** Codes asked for, per client network, across numbers. */
  network: { max: 10, windowSeconds: 60 * 60 },
  /** Codes asked for, per number: what a stranger can make a phone receive. */
  phone: { max: 3, windowSeconds: 60 * 60 },
  /** Codes tried, per client network (a guesser across numbers). */
  verifyNetwork: { max: 20, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Limit>;

/** The number as the campaign stores it (E.164), or a 400 that is the same for every bad input. */
export function codePhone(input: unknown, lang: Lang): string {
  const e164 = typeof input === 'string' && input.length <= 40 ? toE164(input) : null;
  if (!e164) throw new HttpError(400, SUPPORTER_COPY[lang].phoneInvalid);
  return e164;
}

export async function requestTextCode(
  phone: string,
  lang: Lang,
  ip: string,
  now = new Date(),
  defer?: Defer,
): Promise<string> {
  await reserveClientAttempt('supporter-code-ip', ip, TEXT_CODE_LIMITS.network, { now: now.getTime() });
  await reserveAttempt('supporter-code-phone', phone, TEXT_CODE_LIMITS.phone, { now: now.getTime() });
  const work = issueCode(phone, lang, now).catch((err: unknown) =>
    console.error('[my-code] could not text a sign-in code:', (err as Error).message),
  );
  if (defer) defer(work);
  else await work;
  return SUPPORTER_COPY[lang].codeSent;
}

/** The person a number leads to (the root of a merge), or null: never created from a typed number. */
async function personIdForPhone(e164: string): Promise<string | null> {
  const found = await people().get<{ id?: string }>(lookupKey('phone', e164));
  const id = found?.value.id;
  if (!id) return null;
  const p = await getPerson(id);
  if (!p) return null;
  return p.value.mergedInto ?? p.value.id;
}

async function issueCode(phone: string, lang: Lang, now: Date): Promise<void> {
  const personId = await personIdForPhone(phone);
  if (!personId) return;
  const code = String(randomInt(0, 10 ** TEXT_CODE_DIGITS)).padStart(TEXT_CODE_DIGITS, '0');
  await people().put(textCodeKey(phone), {
    personId,
    codeHash: codeHash(phone, code),
    expiresAt: new Date(now.getTime() + TEXT_CODE_TTL_MS).toISOString(),
    guesses: 0,
  } satisfies TextCodeRecord);
  const sent = await sendGuardedText({
    to: phone,
    body: SUPPORTER_COPY[lang].codeText(code),
    lang,
    consent: { purpose: 'supporter_code' },
    now,
  });
  if (!sent.sent) console.warn('[my-code] the text guard refused a sign-in code:', sent.refusal);
}

/**
 * Redeems a code once: the person's id, or null (no code in flight, expired, wrong, or the person is gone). A wrong
 * guess is counted on the code; the fifth removes it. The right one is taken by the compare-and-set that deletes it,
 * so two requests with the same code sign in once.
 */
export async function redeemTextCode(
  phone: string,
  code: string,
  ip: string,
  now = new Date(),
): Promise<string | null> {
  await reserveClientAttempt('supporter-code-verify-ip', ip, TEXT_CODE_LIMITS.verifyNetwork, {
    now: now.getTime(),
  });
  if (!/^\d{6}$/.test(code)) return null;
  const k = textCodeKey(phone);
  const rec = await people().get<TextCodeRecord>(k);
  if (!rec || Date.parse(rec.value.expiresAt) <= now.getTime()) return null;
  const right = timingSafeEqual(
    Buffer.from(codeHash(phone, code), 'hex'),
    Buffer.from(rec.value.codeHash, 'hex'),
  );
  if (!right) {
    const guesses = rec.value.guesses + 1;
    if (guesses >= TEXT_CODE_MAX_GUESSES) await people().delete(k);
    else await people().replace(k, { ...rec.value, guesses }, rec.etag);
    return null;
  }
  // Single use: only the request whose compare-and-set spends it goes on.
  const won = await people().replace(k, { ...rec.value, expiresAt: new Date(0).toISOString() }, rec.etag);
  if (!won) return null;
  await people().delete(k);
  const p = await getPerson(rec.value.personId);
  return p ? (p.value.mergedInto ?? p.value.id) : null;
}
