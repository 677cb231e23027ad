import { expect } from 'vitest';
import * as phoneFn from '../../netlify/functions/auth-phone.mts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { call } from './http.ts';

/** Every text in the local outbox, oldest first (keys are `sms/<ISO time>-<random>`). */
export async function outboxTexts(): Promise<{ to: string; body: string; at: string }[]> {
  const out: { to: string; body: string; at: string }[] = [];
  for await (const page of kv('outbox').keys('sms/')) {
    for (const k of page.sort()) {
      const v = await kv('outbox').get<{ to: string; body: string; at: string }>(k);
      if (v) out.push(v.value);
    }
  }
  return out.sort((a, b) => a.at.localeCompare(b.at));
}

/** The six-digit code of the newest text to `phone`. */
export async function lastCodeTo(phone: string): Promise<string> {
  const texts = (await outboxTexts()).filter((t) => t.to === phone);
  const code = /\b(\d{6})\b/.exec(texts.at(-1)?.body ?? '')?.[1];
  expect(code, `a code texted to ${phone}`).toBeDefined();
  return code!;
}

export const askForCode = (cookie: string, phone: string) =>
  call(phoneFn, '/api/auth/phone/code', { json: { phone }, cookie });

export const sendCodeBack = (cookie: string, code: string) =>
  call(phoneFn, '/api/auth/phone/verify', { json: { code }, cookie });

/** Verifies `phone` as the signed-in member's own, through the real endpoints and the outbox. */
export async function verifyPhone(cookie: string, phone: string): Promise<void> {
  const asked = await askForCode(cookie, phone);
  expect(asked.status, await asked.clone().text()).toBe(200);
  const res = await sendCodeBack(cookie, await lastCodeTo(phone));
  expect(res.status, await res.clone().text()).toBe(200);
}
