import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as phoneFn from '../../netlify/functions/auth-phone.mts';
import type { AuditEntry } from '../../src/lib/schemas/audit.ts';
import {
  STAFF_PHONE_CODE_ATTEMPTS,
  STAFF_PHONE_MESSAGES as M,
  type StaffPhoneStatus,
} from '../../src/lib/schemas/staff-phone.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { confirmPhoneCode, sendPhoneCode } from '../../src/lib/server/broadcasts/staff-phone.ts';
import { phoneCodeKey } from '../../src/lib/server/auth/staff-phone-codes.ts';
import { getUser } from '../../src/lib/server/auth/users.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { markOptedOut } from '../../src/lib/server/texting/text-list.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { askForCode, lastCodeTo, outboxTexts, sendCodeBack, verifyPhone } from '../helpers/staff-phone.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * A staff member's own phone, verified by a texted code (docs/decisions/152-broadcasts.md): the
 * code goes through the text guard (STOP and the number policy hold), is stored only as an HMAC, dies after ten
 * minutes or five wrong tries, is limited per member and per number, and only the code of the new number changes the
 * verified phone. Every write is audited with the phone masked. The test sends themselves are in
 * broadcast-test-sends.test.ts.
 */

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
  localProviders();
});
afterAll(() => stop());

const json = async <T>(res: Response) => (await res.json()) as T;
const status = async (cookie: string) =>
  json<StaffPhoneStatus>(await call(phoneFn, '/api/auth/phone', { cookie }));
const textsTo = async (phone: string) => (await outboxTexts()).filter((t) => t.to === phone);
/** The member's own-phone entries in the audit trail. */
async function entriesOf(username: string): Promise<AuditEntry[]> {
  const page = await auditPage({ page: 1, pageSize: 100, format: 'json' });
  return page.entries.filter((e) => e.actorName === username && e.kind.startsWith('auth.phone'));
}
/** A code that is not `code` (same length). */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('verifying one’s own phone', () => {
  it('a code is texted through the guard, stored only as a hash; typed back, the number is the verified phone', async () => {
    const editor = await signedIn('editor');
    const res = await askForCode(editor.cookie, '(212) 555-0142');
    expect(res.status).toBe(200);
    expect(await json<StaffPhoneStatus>(res)).toMatchObject({
      phone: null,
      pending: { phone: '(•••) •••-0142' },
    });
    const texts = await textsTo('+12125550142');
    expect(texts).toHaveLength(1);
    // The guard's compliance: the program's name first, the opt-out line last.
    expect(texts[0]!.body).toMatch(/^Avery for Mayor: Your dashboard verification code is \d{6}\./);
    expect(texts[0]!.body).toMatch(/STOP/);
    const code = await lastCodeTo('+12125550142');
    const stored = JSON.stringify((await kv('auth').get(phoneCodeKey(editor.user.id)))?.value);
    expect(stored).toContain('codeHash');
    expect(stored).not.toContain(code);
    expect((await getUser(editor.user.id))?.phone).toBeNull();

    const verified = await sendCodeBack(editor.cookie, code);
    expect(verified.status).toBe(200);
    expect(await json<StaffPhoneStatus>(verified)).toMatchObject({ phone: '(•••) •••-0142', pending: null });
    expect((await getUser(editor.user.id))?.phone).toBe('+12125550142');
    // Single use.
    const again = await sendCodeBack(editor.cookie, code);
    expect(again.status).toBe(400);
    expect((await json<{ error: string }>(again)).error).toBe(M.noCode);

    const entries = await entriesOf(editor.username);
    expect(entries.map((e) => e.kind).sort()).toEqual(['auth.phone_code_sent', 'auth.phone_verified']);
    // The audit trail shows the phone masked.
    expect(JSON.stringify(entries)).not.toContain('5550142');
  });

  it('a wrong code is refused and changes nothing; the right one still works after it', async () => {
    const viewer = await signedIn('viewer');
    expect((await askForCode(viewer.cookie, '303-555-0143')).status).toBe(200);
    const code = await lastCodeTo('+13035550143');
    const res = await sendCodeBack(viewer.cookie, wrong(code));
    expect(res.status).toBe(400);
    expect((await json<{ error: string }>(res)).error).toBe(M.codeWrong);
    expect((await getUser(viewer.user.id))?.phone).toBeNull();
    expect((await sendCodeBack(viewer.cookie, code)).status).toBe(200);
    expect((await getUser(viewer.user.id))?.phone).toBe('+13035550143');
  });

  it(`after ${STAFF_PHONE_CODE_ATTEMPTS} wrong codes the code dies, the right one included; a new code works`, async () => {
    const editor = await signedIn('editor');
    await askForCode(editor.cookie, '602-555-0144');
    const code = await lastCodeTo('+16025550144');
    for (let i = 1; i < STAFF_PHONE_CODE_ATTEMPTS; i += 1) {
      const res = await sendCodeBack(editor.cookie, wrong(code));
      expect((await json<{ error: string }>(res)).error).toBe(M.codeWrong);
    }
    const last = await sendCodeBack(editor.cookie, wrong(code));
    expect(last.status).toBe(400);
    expect((await json<{ error: string }>(last)).error).toBe(M.tooManyWrong);
    const right = await sendCodeBack(editor.cookie, code);
    expect(right.status).toBe(400);
    expect((await getUser(editor.user.id))?.phone).toBeNull();
    await askForCode(editor.cookie, '602-555-0144');
    expect((await sendCodeBack(editor.cookie, await lastCodeTo('+16025550144'))).status).toBe(200);
    expect((await getUser(editor.user.id))?.phone).toBe('+16025550144');
  });

  it('tries are counted before the comparison: a code whose tries are all taken is refused, the right one too', async () => {
    const editor = await signedIn('editor');
    await askForCode(editor.cookie, '602-555-0154');
    const code = await lastCodeTo('+16025550154');
    // As if the last tries were counted by requests still comparing (parallel guesses): none is left for this one.
    const k = phoneCodeKey(editor.user.id);
    const cur = (await kv('auth').get<Record<string, unknown>>(k))!.value;
    await kv('auth').put(k, { ...cur, attempts: STAFF_PHONE_CODE_ATTEMPTS });
    const res = await sendCodeBack(editor.cookie, code);
    expect(res.status).toBe(400);
    expect((await json<{ error: string }>(res)).error).toBe(M.tooManyWrong);
    expect((await getUser(editor.user.id))?.phone).toBeNull();
  });

  it('a code proves only the number it was texted to: the number in the stored record changed, the code fails', async () => {
    const editor = await signedIn('editor');
    await askForCode(editor.cookie, '602-555-0155');
    const code = await lastCodeTo('+16025550155');
    const k = phoneCodeKey(editor.user.id);
    const cur = (await kv('auth').get<Record<string, unknown>>(k))!.value;
    await kv('auth').put(k, { ...cur, phone: '+16025550156' });
    expect((await sendCodeBack(editor.cookie, code)).status).toBe(400);
    expect((await getUser(editor.user.id))?.phone).toBeNull();
  });

  it('a code works for ten minutes and not after', async () => {
    const editor = await signedIn('editor');
    const user = (await getUser(editor.user.id))!;
    const sentAt = new Date('2026-11-03T10:00:00-06:00');
    await sendPhoneCode(user, '+18085550145', sentAt);
    await expect(
      confirmPhoneCode(user, await lastCodeTo('+18085550145'), new Date('2026-11-03T10:10:00-06:00')),
    ).rejects.toMatchObject({ status: 400, message: M.codeExpired });
    // The expired code is gone: asking again is the way on.
    expect(await kv('auth').get(phoneCodeKey(user.id))).toBeNull();
    await sendPhoneCode(user, '+18085550145', sentAt);
    const ok = await confirmPhoneCode(
      user,
      await lastCodeTo('+18085550145'),
      new Date('2026-11-03T10:09:59-06:00'),
    );
    expect(ok.user.phone).toBe('+18085550145');
  });

  it('a new number replaces the verified one only when its own code comes back', async () => {
    const editor = await signedIn('editor');
    await verifyPhone(editor.cookie, '+14155550146');
    expect((await askForCode(editor.cookie, '+12125550147')).status).toBe(200);
    // Until the new code comes back, the verified phone is the old one.
    expect(await status(editor.cookie)).toMatchObject({
      phone: '(•••) •••-0146',
      pending: { phone: '(•••) •••-0147' },
    });
    expect((await getUser(editor.user.id))?.phone).toBe('+14155550146');
    // The old number's code does not verify the new one.
    const oldCode = await lastCodeTo('+14155550146');
    expect((await sendCodeBack(editor.cookie, oldCode)).status).toBe(400);
    expect((await sendCodeBack(editor.cookie, await lastCodeTo('+12125550147'))).status).toBe(200);
    expect((await getUser(editor.user.id))?.phone).toBe('+12125550147');
    // The same number again is no change.
    const same = await askForCode(editor.cookie, '+12125550147');
    expect(same.status).toBe(409);
  });

  it('removing the phone forgets it, audited', async () => {
    const editor = await signedIn('editor');
    await verifyPhone(editor.cookie, '+12125550148');
    const res = await call(phoneFn, '/api/auth/phone', { method: 'DELETE', cookie: editor.cookie });
    expect(res.status).toBe(200);
    expect((await json<StaffPhoneStatus>(res)).phone).toBeNull();
    expect((await getUser(editor.user.id))?.phone).toBeNull();
    expect((await entriesOf(editor.username)).map((e) => e.kind)).toContain('auth.phone_removed');
    expect((await call(phoneFn, '/api/auth/phone', { method: 'DELETE', cookie: editor.cookie })).status).toBe(
      409,
    );
  });
});

describe('what a code may be texted to, and how often', () => {
  it('an opted-out number (STOP) and a number outside the policy get no code', async () => {
    const editor = await signedIn('editor');
    await markOptedOut('+12125550149', '2026-11-01T12:00:00.000Z', 'en');
    const stopped = await askForCode(editor.cookie, '+12125550149');
    expect(stopped.status).toBe(400);
    expect((await json<{ error: string }>(stopped)).error).toBe(M.optedOut);
    const foreign = await askForCode(editor.cookie, '+447911123456');
    expect(foreign.status).toBe(400);
    expect((await json<{ error: string }>(foreign)).error).toBe(M.numberNotAllowed);
    expect(await textsTo('+12125550149')).toEqual([]);
    expect(await textsTo('+447911123456')).toEqual([]);
    // Nothing in flight: the refused code was not kept.
    expect(await kv('auth').get(phoneCodeKey(editor.user.id))).toBeNull();
  });

  it('five codes an hour per member, five a day per number', async () => {
    const editor = await signedIn('editor');
    for (let i = 0; i < 5; i += 1)
      expect((await askForCode(editor.cookie, `+1212555016${i}`)).status).toBe(200);
    const sixth = await askForCode(editor.cookie, '+12125550165');
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBeTruthy();
    expect(await textsTo('+12125550165')).toEqual([]);
    // One number, however many members ask.
    const members = await Promise.all([1, 2, 3, 4, 5, 6].map(() => signedIn('viewer')));
    const answers: number[] = [];
    for (const m of members) answers.push((await askForCode(m.cookie, '+13035550170')).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await textsTo('+13035550170')).toHaveLength(5);
  });

  it('anonymous is refused; bad input is a 400 that texts nothing', async () => {
    expect((await askForCode('', '+12125550180')).status).toBe(401);
    expect((await call(phoneFn, '/api/auth/phone')).status).toBe(401);
    const editor = await signedIn('editor');
    for (const body of [{}, { phone: 'call me' }, { phone: '+12125550181', extra: 1 }, []]) {
      const res = await call(phoneFn, '/api/auth/phone/code', { json: body, cookie: editor.cookie });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{}, { code: '12345' }, { code: 'abcdef' }, { code: 123456 }]) {
      const res = await call(phoneFn, '/api/auth/phone/verify', { json: body, cookie: editor.cookie });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await textsTo('+12125550181')).toEqual([]);
    expect(
      (await call(phoneFn, '/api/auth/phone/code', { method: 'GET', cookie: editor.cookie })).status,
    ).toBe(405);
  });
});
