import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as newsletter from '../../netlify/functions/newsletter.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { ConsentEventSchema, StoredTextSignupSchema } from '../../src/lib/schemas/inbox.ts';
import { TEXT_SIGNUP_LIMITS } from '../../src/lib/server/forms/text-limits.ts';
import { hashed, setStoreFactory } from '../../src/lib/server/store.ts';
import { startBlobs, useMemoryStores } from '../helpers/blobs.ts';
import { call, expectExplicitRefusals, untilAccepted, type Refusal } from '../helpers/http.ts';
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

/**
 * Sends every request at once through a client that retries explicit 409/503
 * refusals (see untilAccepted): the properties below then hold however slow
 * the machine is, with no time budget in the test.
 */
async function allAtOnce(
  sends: (() => Promise<Response>)[],
): Promise<{ statuses: number[]; refusals: Refusal[]; finals: Response[] }> {
  const outcomes = await Promise.all(sends.map((send) => untilAccepted(send)));
  const refusals = outcomes.flatMap((o) => o.refusals);
  expectExplicitRefusals(refusals);
  return { statuses: outcomes.map((o) => o.final.status), refusals, finals: outcomes.map((o) => o.final) };
}

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

  it('200 distinct text sign-ups at once -> 200 people, every opt-in logged, none doubled', async () => {
    const { statuses } = await allAtOnce(
      Array.from({ length: 200 }, (_, i) => () => signup(validSignup({ phone: phoneN(base, i), email: '' }))),
    );
    // Every sign-up was acknowledged as new (a retried one may find its own first attempt: 200).
    expect(statuses.every((st) => st === 201 || st === 200)).toBe(true);
    const people = await keysOf('signups', 'person/');
    const ours = new Set(Array.from({ length: 200 }, (_, i) => `person/${hashed(phoneN(base, i))}`));
    expect(people.filter((k) => ours.has(k))).toHaveLength(200);
    const optIns = (await valuesOf<{ type: string; phone: string }>('signups', 'consent/')).filter(
      (e) => e.type === 'web_opt_in' && e.phone >= phoneN(base, 0) && e.phone <= phoneN(base, 199),
    );
    // Each acknowledged opt-in is in the ledger (a refused attempt may have logged its own too).
    expect(new Set(optIns.map((e) => e.phone)).size).toBe(200);
  });

  it('50 identical text sign-ups at once -> 1 person, 1 text, each answered 2xx or 429 (per-number limit), nothing acknowledged lost', async () => {
    const phone = phoneN(base, 500);
    const { statuses, refusals } = await allAtOnce(
      Array.from({ length: 50 }, () => () => signup(validSignup({ phone }))),
    );
    const accepted = statuses.filter((s) => s === 200 || s === 201).length;
    expect(statuses.every((s) => s === 200 || s === 201 || s === 429)).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(TEXT_SIGNUP_LIMITS.signupsPerNumber.max);
    if (memory) expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await keysOf('signups', `person/${hashed(phone)}`)).toHaveLength(1);
    const log = await valuesOf<{ type: string }>('signups', `consent/${hashed(phone)}/`);
    // One logged opt-in per acknowledged submission, plus at most one per refused (retried) attempt.
    const optIns = log.filter((e) => e.type === 'web_opt_in').length;
    expect(optIns).toBeGreaterThanOrEqual(accepted);
    expect(optIns).toBeLessThanOrEqual(accepted + refusals.length);
    const texts = (await valuesOf<{ to: string }>('outbox', 'sms/')).filter((m) => m.to === phone);
    // One confirmation per number per day, reserved just before sending: exactly one on both stores.
    expect(texts).toHaveLength(1);
  });

  it('one IP sending 50 new numbers at once triggers at most the per-IP text limit', async () => {
    const ip = uniqueIp();
    const phones = Array.from({ length: 50 }, (_, i) => phoneN(base, 700 + i));
    const { statuses, finals } = await allAtOnce(
      phones.map((phone) => () => signup(validSignup({ phone, email: '' }), ip)),
    );
    expect(statuses.every((s) => s === 201 || s === 200 || s === 429)).toBe(true);
    for (const r of finals.filter((x) => x.status === 429))
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    const texts = (await valuesOf<{ to: string }>('outbox', 'sms/')).filter((m) => phones.includes(m.to));
    expect(texts.length).toBeLessThanOrEqual(TEXT_SIGNUP_LIMITS.textsPerIp.max);
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(TEXT_SIGNUP_LIMITS.textsPerIp.max);
  });

  it('50 identical volunteer sign-ups at once -> 1 record, all 2xx', async () => {
    const email = `same-${backend.length}@example.com`;
    const { statuses } = await allAtOnce(
      Array.from(
        { length: 50 },
        () => () =>
          call(volunteers, '/api/volunteers-sendgrid', { json: validVolunteer({ email }), ip: uniqueIp() }),
      ),
    );
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    if (memory) expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(1);
  });
});
