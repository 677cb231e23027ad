import { describe, expect, it, vi } from 'vitest';
import * as inboundFn from '../../netlify/functions/sms-inbound.mts';
import * as myAccount from '../../netlify/functions/my-account.mts';
import * as myCode from '../../netlify/functions/my-code.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { SUPPORTER_COPY } from '../../src/content/supporter-page.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { TEXT_CODE_LIMITS } from '../../src/lib/server/supporters/text-code.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { messageSid, signedInbound, TWILIO_TOKEN, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call, callThenDeferred } from '../helpers/http.ts';

/*
 * A sign-in code by text to a supporter's own page (docs/decisions/182-supporter-page.md), through the real handlers
 * on a real local Blobs server: the same answer for a known and an unknown number, limits per number and per
 * network, a code that works once, for 10 minutes and five guesses, and a text that goes through the text guard
 * (a number that said STOP gets nothing).
 */

/** The campaign's clock: 2026-10-20 10:00 in New Orleans. */
const NOW = new Date('2026-10-20T10:00:00-05:00');

useLocalBlobs({ env: { TWILIO_AUTH_TOKEN: TWILIO_TOKEN }, now: NOW });

let seq = 0;
/** A new number (dashed as typed, E.164 as stored). */
function number() {
  seq += 1;
  const n = String(3100 + seq);
  return { dashed: `504-556-${n}`, e164: `+1504556${n}` };
}

/** A volunteer with a phone: a person the code can sign in. */
async function supporterWithPhone() {
  const phone = number();
  const res = await call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({
      firstName: 'Tomasa',
      lastName: 'Texter',
      email: `tomasa.${seq}-${Date.now()}@example.org`,
      phone: phone.dashed,
    }),
    ip: uniqueIp(),
  });
  expect(res.status).toBe(201);
  return phone;
}

/** Asks for a code; the deferred work (look-up and text) is collected, then awaited. */
const askCode = (phone: string, ip = uniqueIp(), lang = 'en') =>
  callThenDeferred(myCode, '/api/my/code', { json: { phone, lang }, ip });

/** The codes texted to `e164`, oldest first. */
async function codesTo(e164: string): Promise<string[]> {
  const found: { at: string; code: string }[] = [];
  for await (const page of kv('outbox').keys('sms/'))
    for (const k of page) {
      const m = (await kv('outbox').get<{ to: string; body: string; at: string }>(k))?.value;
      const code = m?.to === e164 ? /My campaign: (\d{6})\b/.exec(m.body)?.[1] : undefined;
      if (code) found.push({ at: m!.at, code });
    }
  return found.sort((a, b) => a.at.localeCompare(b.at)).map((f) => f.code);
}

const enter = (phone: string, code: string, ip = uniqueIp()) =>
  call(myAccount, '/api/my/code-session', { method: 'POST', json: { phone, code }, ip });

describe('a sign-in code by text', () => {
  it('answers a known and an unknown number identically, and only the known one gets a text', async () => {
    const known = await supporterWithPhone();
    const unknown = number();
    const a = await askCode(known.dashed);
    const b = await askCode(unknown.dashed);
    expect(a.res.status).toBe(200);
    expect([b.res.status, b.body]).toEqual([a.res.status, a.body]);
    const headers = (r: Response) => [...r.headers.entries()].filter(([k]) => k !== 'date');
    expect(headers(b.res)).toEqual(headers(a.res));
    expect([a.deferred, b.deferred]).toEqual([1, 1]);
    expect(JSON.parse(a.body)).toEqual({ success: true, message: SUPPORTER_COPY.en.codeSent });
    expect(await codesTo(known.e164)).toHaveLength(1);
    expect(await codesTo(unknown.e164)).toEqual([]);
    // A malformed number is a 400, whoever it might be.
    expect((await askCode('12')).res.status).toBe(400);
  });

  it('limits requests per number whoever asks, and per network across numbers, alike for known and unknown', async () => {
    const known = await supporterWithPhone();
    const unknown = number();
    for (const phone of [known.dashed, unknown.dashed]) {
      const statuses: number[] = [];
      for (let i = 0; i < TEXT_CODE_LIMITS.phone.max + 1; i++)
        statuses.push((await askCode(phone)).res.status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < TEXT_CODE_LIMITS.network.max + 1; i++)
      statuses.push((await askCode(number().dashed, ip)).res.status);
    expect(statuses.filter((s) => s === 429)).toEqual([429]);
    expect(statuses.at(-1)).toBe(429);
  });

  it('works once: the right code signs in, a second use or a concurrent twin does not', async () => {
    const known = await supporterWithPhone();
    await askCode(known.dashed);
    const [code] = await codesTo(known.e164);
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await enter(known.dashed, wrong)).status).toBe(400);
    const both = await Promise.all([enter(known.dashed, code!), enter(known.e164, code!)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    const won = both.find((r) => r.status === 200)!;
    expect(won.headers.getSetCookie().map((c) => /Path=([^;]+)/.exec(c)?.[1])).toEqual([
      '/my',
      '/es/my',
      '/api/my',
    ]);
    const cookie = won.headers.getSetCookie()[0]!.split(';')[0]!;
    expect((await call(myAccount, '/api/my/data', { cookie })).status).toBe(200);
    const again = await enter(known.dashed, code!);
    expect([again.status, ((await again.json()) as { error: string }).error]).toEqual([
      400,
      SUPPORTER_COPY.en.invalidCode,
    ]);
  });

  it('lives 10 minutes, and five wrong guesses spend it', async () => {
    const late = await supporterWithPhone();
    await askCode(late.dashed);
    const [lateCode] = await codesTo(late.e164);
    vi.setSystemTime(new Date(NOW.getTime() + 10 * 60 * 1000 + 1000));
    expect((await enter(late.dashed, lateCode!)).status).toBe(400);
    vi.setSystemTime(NOW);

    const guessed = await supporterWithPhone();
    await askCode(guessed.dashed);
    const [code] = await codesTo(guessed.e164);
    const wrongs = ['111111', '222222', '333333', '444444', '555555', '666666'].filter((c) => c !== code);
    for (const w of wrongs.slice(0, 5)) expect((await enter(guessed.dashed, w)).status).toBe(400);
    expect((await enter(guessed.dashed, code!)).status).toBe(400);
  });

  it('goes through the text guard: a number that said STOP gets no code, and the answer is the same', async () => {
    const stopped = await supporterWithPhone();
    const signed = signedInbound({ MessageSid: messageSid(), From: stopped.e164, Body: 'STOP' });
    const stop = await call(inboundFn, '/api/sms/inbound', {
      method: 'POST',
      body: signed.body,
      headers: signed.headers,
    });
    expect(stop.status).toBe(200);
    const asked = await askCode(stopped.dashed);
    expect([asked.res.status, JSON.parse(asked.body)]).toEqual([
      200,
      { success: true, message: SUPPORTER_COPY.en.codeSent },
    ]);
    expect(await codesTo(stopped.e164)).toEqual([]);
  });
});
