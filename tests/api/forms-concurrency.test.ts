import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as newsletter from '../../netlify/functions/text-signup.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { ConsentEventSchema, StoredTextSignupSchema } from '../../src/lib/schemas/inbox.ts';
import { BlobsKV } from '../../src/lib/server/storage/blobs-kv.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { TEXT_SIGNUP_LIMITS } from '../../src/lib/server/texting/text-limits.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { counting, zeroCounts, type KVCounts } from '../helpers/counting-kv.ts';
import { FakeBlobsService } from '../helpers/fake-blobs-service.ts';
import { call } from '../helpers/http.ts';
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
 * Sends every request at once, ONE attempt each (no client retry): every
 * answer is final, so a conflict or a busy store that reached a person shows
 * up as their answer. What the burst cost at the store (conditional writes
 * that lost and were retried inside the request) is counted and reported.
 */
async function allAtOnce(
  label: string,
  sends: (() => Promise<Response>)[],
): Promise<{ statuses: number[]; finals: Response[] }> {
  const before = { ...counts };
  const finals = await Promise.all(sends.map((send) => send()));
  const statuses = finals.map((r) => r.status);
  const tally = Object.entries(
    statuses.reduce<Record<number, number>>((acc, st) => ({ ...acc, [st]: (acc[st] ?? 0) + 1 }), {}),
  )
    .map(([st, n]) => `${n} x ${st}`)
    .join(', ');
  const lost =
    counts.createConflicts - before.createConflicts + counts.replaceConflicts - before.replaceConflicts;
  // The local-server path queues writes per key in-process: its stores are not wrapped (a wrapper would turn the queue off).
  const cost = counted
    ? `${lost} store conflicts retried inside requests`
    : 'store conflicts not counted (queued path)';
  console.info(`[figures] ${backendName}: ${label}: ${tally}; ${cost}`);
  return { statuses, finals };
}

async function expectAllStoredValid(): Promise<void> {
  for (const p of await valuesOf('signups', 'person/')) StoredTextSignupSchema.parse(p);
  for (const e of await valuesOf('signups', 'consent/')) ConsentEventSchema.parse(e);
}

let counts: KVCounts = zeroCounts();
let counted = false;
let backendName = '';

/** Every store through `make`, wrapped to count conflicts. */
function countedStores(make: (name: StoreName) => KV): void {
  counts = zeroCounts();
  counted = true;
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = counting(make(name), counts)));
    return s;
  });
}

/**
 * The figures (SECURITY.md, "Storage that loses nothing") on three stores
 * (docs/decisions/153-storage.md): the production path (BlobsKV on the
 * service path) over an SDK-like fake of the service with atomic conditional
 * writes; the atomic in-memory store; and the real local Blobs server on the
 * local-server path (writes queued per key in-process, as `npm run dev`).
 */
const BACKENDS = [
  'production path, SDK-like fake service',
  'atomic in-memory KV',
  'real local Blobs server (local-server path)',
] as const;

describe.each(BACKENDS.map((b, i) => [b, i] as const))('concurrent sign-ups (%s)', (backend, index) => {
  // On the two atomic stores exactly one of the identical sign-ups creates the record.
  const atomic = !backend.startsWith('real local');
  let service: FakeBlobsService | null = null;
  beforeAll(async () => {
    backendName = backend;
    if (backend.startsWith('production')) {
      service = await new FakeBlobsService().start();
      service.use();
      countedStores((name) => new BlobsKV(name, { path: 'service' }));
    } else if (backend.startsWith('atomic')) {
      countedStores(() => new MemoryKV());
    } else {
      blobs.use();
      counts = zeroCounts();
      counted = false;
      setStoreFactory(null);
    }
  });
  afterEach(() => expectAllStoredValid());
  afterAll(async () => {
    setStoreFactory(null);
    await service?.stop();
  });
  const base = 3_000_000 + index * 1_000_000;

  it('200 distinct text sign-ups at once -> 200 people, every opt-in logged, none doubled', async () => {
    const { statuses } = await allAtOnce(
      '200 distinct text sign-ups',
      Array.from({ length: 200 }, (_, i) => () => signup(validSignup({ phone: phoneN(base, i), email: '' }))),
    );
    // Every sign-up was acknowledged as new, at the first attempt.
    expect(statuses.filter((st) => st !== 201)).toEqual([]);
    const people = await keysOf('signups', 'person/');
    const ours = new Set(Array.from({ length: 200 }, (_, i) => `person/${hashed(phoneN(base, i))}`));
    expect(people.filter((k) => ours.has(k))).toHaveLength(200);
    const optIns = (await valuesOf<{ type: string; phone: string }>('signups', 'consent/')).filter(
      (e) => e.type === 'web_opt_in' && e.phone >= phoneN(base, 0) && e.phone <= phoneN(base, 199),
    );
    // Each acknowledged opt-in is in the ledger, once.
    expect(new Set(optIns.map((e) => e.phone)).size).toBe(200);
    expect(optIns).toHaveLength(200);
    // Each sign-up also finds or makes its person and counts for the Overview: a timeout only catches a hang.
  }, 300_000);

  it('50 identical text sign-ups at once -> 1 person, 1 text, each answered 2xx or 429 (per-number limit), nothing acknowledged lost', async () => {
    const phone = phoneN(base, 500);
    const { statuses } = await allAtOnce(
      '50 identical text sign-ups',
      Array.from({ length: 50 }, () => () => signup(validSignup({ phone }))),
    );
    const accepted = statuses.filter((s) => s === 200 || s === 201).length;
    expect(statuses.filter((s) => s !== 200 && s !== 201 && s !== 429)).toEqual([]);
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(TEXT_SIGNUP_LIMITS.signupsPerNumber.max);
    // Created once on an atomic store; the local server's non-atomic writes may answer 201 more than once.
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(atomic ? 1 : 50);
    expect(await keysOf('signups', `person/${hashed(phone)}`)).toHaveLength(1);
    const log = await valuesOf<{ type: string }>('signups', `consent/${hashed(phone)}/`);
    // One logged opt-in per acknowledged submission (a refused one logs nothing it did not do).
    const optIns = log.filter((e) => e.type === 'web_opt_in').length;
    expect(optIns).toBe(accepted);
    const texts = (await valuesOf<{ to: string }>('outbox', 'sms/')).filter((m) => m.to === phone);
    // One confirmation per number per day, reserved just before sending: exactly one on both stores.
    expect(texts).toHaveLength(1);
  });

  it('one IP sending 50 new numbers at once triggers at most the per-IP text limit', async () => {
    const ip = uniqueIp();
    const phones = Array.from({ length: 50 }, (_, i) => phoneN(base, 700 + i));
    const { statuses, finals } = await allAtOnce(
      'one IP, 50 new numbers',
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
      '50 identical volunteer sign-ups',
      Array.from(
        { length: 50 },
        () => () =>
          call(volunteers, '/api/volunteers-sendgrid', { json: validVolunteer({ email }), ip: uniqueIp() }),
      ),
    );
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    const created = statuses.filter((s) => s === 201).length;
    expect(created).toBeGreaterThanOrEqual(1);
    expect(created).toBeLessThanOrEqual(atomic ? 1 : 50);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(1);
  });
});
