import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as newsletter from '../../netlify/functions/newsletter.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { ConsentEventSchema, StoredTextSignupSchema } from '../../src/lib/schemas/inbox.ts';
import { hashed, MemoryKV, setStoreFactory, type KV, type StoreName } from '../../src/lib/server/store.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call, expectExplicitRefusals, untilAccepted, type Refusal } from '../helpers/http.ts';
import { keysOf, localProviders, validSignup, validVolunteer, valuesOf } from '../helpers/forms.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

const phoneN = (base: number, i: number) => `+1504${String(base + i).padStart(7, '0')}`;
const signup = (json: unknown) => call(newsletter, '/api/newsletter', { json });

/**
 * Sends every request at once through a client that retries explicit 409/503
 * refusals (see untilAccepted): the properties below then hold however slow
 * the machine is, with no time budget in the test.
 */
async function allAtOnce(
  sends: (() => Promise<Response>)[],
): Promise<{ statuses: number[]; refusals: Refusal[] }> {
  const outcomes = await Promise.all(sends.map((send) => untilAccepted(send)));
  const refusals = outcomes.flatMap((o) => o.refusals);
  expectExplicitRefusals(refusals);
  return { statuses: outcomes.map((o) => o.final.status), refusals };
}

function useMemory(): void {
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
}

async function expectAllStoredValid(): Promise<void> {
  for (const p of await valuesOf('signups', 'person/')) StoredTextSignupSchema.parse(p);
  for (const e of await valuesOf('signups', 'consent/')) ConsentEventSchema.parse(e);
}

describe.each(['atomic in-memory KV', 'real local Blobs server'])('concurrent sign-ups (%s)', (backend) => {
  const memory = backend.startsWith('atomic');
  beforeAll(() => (memory ? useMemory() : setStoreFactory(null)));
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

  it('50 identical text sign-ups at once -> 1 person, all 2xx, 50 opt-ins logged (nothing lost)', async () => {
    const phone = phoneN(base, 500);
    const { statuses, refusals } = await allAtOnce(
      Array.from({ length: 50 }, () => () => signup(validSignup({ phone }))),
    );
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    if (memory) expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await keysOf('signups', `person/${hashed(phone)}`)).toHaveLength(1);
    const log = await valuesOf<{ type: string }>('signups', `consent/${hashed(phone)}/`);
    // One logged opt-in per acknowledged submission, plus at most one per refused attempt.
    const optIns = log.filter((e) => e.type === 'web_opt_in').length;
    expect(optIns).toBeGreaterThanOrEqual(50);
    expect(optIns).toBeLessThanOrEqual(50 + refusals.length);
    const texts = (await valuesOf<{ to: string }>('outbox', 'sms/')).filter((m) => m.to === phone);
    // The atomic store sends exactly one confirmation; the local server's
    // onlyIfNew is not atomic, so there it is only bounded.
    if (memory) expect(texts).toHaveLength(1);
    else expect(texts.length).toBeGreaterThanOrEqual(1);
  });

  it('50 identical volunteer sign-ups at once -> 1 record, all 2xx', async () => {
    const email = `same-${backend.length}@example.com`;
    const { statuses } = await allAtOnce(
      Array.from(
        { length: 50 },
        () => () => call(volunteers, '/api/volunteers-sendgrid', { json: validVolunteer({ email }) }),
      ),
    );
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    if (memory) expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(1);
  });
});
