import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as newsletter from '../../netlify/functions/newsletter.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { ConsentEventSchema, StoredTextSignupSchema } from '../../src/lib/schemas/inbox.ts';
import { hashed, setStoreFactory } from '../../src/lib/server/store.ts';
import { startBlobs, useMemoryStores } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { TEXT_SIGNUP_LIMITS } from '../../src/lib/server/forms/text-limits.ts';
import { keysOf, localProviders, uniqueIp, validSignup, validVolunteer, valuesOf } from '../helpers/forms.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

const phoneN = (base: number, i: number) => `+1504${String(base + i).padStart(7, '0')}`;
/** Each call from its own client IP (many people) unless one is given. */
const signup = (json: unknown, ip = uniqueIp()) => call(newsletter, '/api/newsletter', { json, ip });

async function expectAllStoredValid(): Promise<void> {
  for (const p of await valuesOf('signups', 'person/')) StoredTextSignupSchema.parse(p);
  for (const e of await valuesOf('signups', 'consent/')) ConsentEventSchema.parse(e);
}

describe.each(['atomic in-memory KV', 'real local Blobs server'])('concurrent sign-ups (%s)', (backend) => {
  const memory = backend.startsWith('atomic');
  beforeAll(() => (memory ? useMemoryStores() : setStoreFactory(null)));
  afterEach(() => expectAllStoredValid());
  afterAll(() => setStoreFactory(null));
  const base = memory ? 3_000_000 : 4_000_000;

  it('200 distinct text sign-ups at once -> 200 people, every opt-in logged', async () => {
    const res = await Promise.all(
      Array.from({ length: 200 }, (_, i) => signup(validSignup({ phone: phoneN(base, i), email: '' }))),
    );
    expect(res.map((r) => r.status)).toEqual(Array(200).fill(201));
    const people = await keysOf('signups', 'person/');
    const ours = new Set(Array.from({ length: 200 }, (_, i) => `person/${hashed(phoneN(base, i))}`));
    expect(people.filter((k) => ours.has(k))).toHaveLength(200);
    const optIns = (await valuesOf<{ type: string; phone: string }>('signups', 'consent/')).filter(
      (e) => e.type === 'web_opt_in' && e.phone >= phoneN(base, 0) && e.phone <= phoneN(base, 199),
    );
    expect(optIns).toHaveLength(200);
  }, 60_000);

  it('50 identical text sign-ups at once -> 1 person, 1 text, each answered 2xx or 429 (per-number limit), nothing acknowledged lost', async () => {
    const phone = phoneN(base, 500);
    const res = await Promise.all(Array.from({ length: 50 }, () => signup(validSignup({ phone }))));
    const statuses = res.map((r) => r.status);
    const accepted = statuses.filter((s) => s === 200 || s === 201).length;
    expect(statuses.every((s) => s === 200 || s === 201 || s === 429)).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(TEXT_SIGNUP_LIMITS.signupsPerNumber.max);
    if (memory) expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await keysOf('signups', `person/${hashed(phone)}`)).toHaveLength(1);
    const log = await valuesOf<{ type: string }>('signups', `consent/${hashed(phone)}/`);
    expect(log.filter((e) => e.type === 'web_opt_in')).toHaveLength(accepted);
    const texts = (await valuesOf<{ to: string }>('outbox', 'sms/')).filter((m) => m.to === phone);
    // One confirmation per number per day, reserved before sending: exactly one on both stores.
    expect(texts).toHaveLength(1);
  }, 60_000);

  it('one IP sending 50 new numbers at once triggers at most the per-IP text limit', async () => {
    const ip = uniqueIp();
    const phones = Array.from({ length: 50 }, (_, i) => phoneN(base, 700 + i));
    const res = await Promise.all(phones.map((phone) => signup(validSignup({ phone, email: '' }), ip)));
    const statuses = res.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
    for (const r of res.filter((x) => x.status === 429))
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    const texts = (await valuesOf<{ to: string }>('outbox', 'sms/')).filter((m) => phones.includes(m.to));
    expect(texts.length).toBeLessThanOrEqual(TEXT_SIGNUP_LIMITS.textsPerIp.max);
    expect(statuses.filter((s) => s === 201)).toHaveLength(texts.length);
  }, 60_000);

  it('50 identical volunteer sign-ups at once -> 1 record, all 2xx', async () => {
    const email = `same-${backend.length}@example.com`;
    const res = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(volunteers, '/api/volunteers-sendgrid', { json: validVolunteer({ email }) }),
      ),
    );
    const statuses = res.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    if (memory) expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(1);
  }, 60_000);
});
