import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as adminDonations from '../../netlify/functions/admin-donations.mts';
import * as goalFn from '../../netlify/functions/donation-goal.mts';
import {
  DayAggregateSchema,
  StoredContributionSchema,
  type DonationSummary,
  type StoredContribution,
} from '../../src/lib/schemas/donations.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs, useFakeService } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { keysOf, localProviders, valuesOf } from '../helpers/forms.ts';
import { signedIn } from '../helpers/users.ts';
import {
  basic,
  deliver,
  fixture,
  order,
  useWebhookCredentials,
  WEBHOOK_PASSWORD,
  WEBHOOK_USER,
} from '../helpers/donations.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let admin: string;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  useWebhookCredentials();
});
afterAll(() => blobs.stop());

/**
 * The tests that read totals run each on a fresh store with its own admin, and deliver the gifts they count: no
 * total depends on what another test delivered.
 */
function freshStoreEachTest(): void {
  let own: Awaited<ReturnType<typeof startBlobs>>;
  beforeEach(async () => {
    own = await startBlobs();
    admin = (await signedIn('admin')).cookie;
  });
  afterEach(async () => {
    await own.stop();
    blobs.use();
    setStoreFactory(null);
  });
}

/** September's story: a $50 one-time gift (refcode sept-email-1), a $25 recurring one, then the $50 refunded. */
async function september(): Promise<void> {
  expect((await deliver(fixture('contribution'))).status).toBe(201);
  expect((await deliver(fixture('recurring'))).status).toBe(201);
  expect((await deliver(fixture('refund'))).status).toBe(200);
}

async function summary(from: string, to: string, cookie = admin): Promise<DonationSummary> {
  const res = await call(adminDonations, `/api/admin/donations?from=${from}&to=${to}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as DonationSummary;
}
const contributions = () => valuesOf<StoredContribution>('donations', 'contribution/');

describe('ActBlue webhook: captured-shape fixtures', () => {
  freshStoreEachTest();

  it('stores a contribution once: a replay stores nothing new', async () => {
    const first = await deliver(fixture('contribution'));
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ kind: 'contribution', created: 1 });
    const again = await deliver(fixture('contribution'));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: 0, changed: 0 });
    expect(await keysOf('donations', 'contribution/AB100000001')).toEqual([
      'contribution/AB100000001-55500001',
    ]);
  });

  it('keeps the minimum: amount, time, refcodes, UTM tags, recurring, a hashed donor key; no name or address', async () => {
    expect((await deliver(fixture('contribution'))).status).toBe(201);
    const [c] = (await contributions()).filter((x) => x.orderNumber === 'AB100000001');
    const stored = StoredContributionSchema.parse(c);
    expect(stored).toMatchObject({
      amountCents: 5000,
      day: '2025-09-20',
      refcode: 'sept-email-1',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'gotv',
      recurring: false,
      status: 'paid',
    });
    expect(stored.donorKey).toMatch(/^[a-f0-9]{64}$/);
    const text = JSON.stringify(c).toLowerCase();
    for (const personal of ['marie', 'laveau', 'st ann', '70116', 'example.com', '5045550142', 'consultant'])
      expect(text).not.toContain(personal);
  });

  it('the dashboard shows the refcode total; a refund lowers the net, once', async () => {
    expect((await deliver(fixture('contribution'))).status).toBe(201);
    expect((await deliver(fixture('recurring'))).status).toBe(201);
    let s = await summary('2025-09-01', '2025-09-30');
    expect(s.byRefcode.find((r) => r.value === 'sept-email-1')).toMatchObject({
      count: 1,
      grossCents: 5000,
      netCents: 5000,
    });
    expect(s.byRefcode.find((r) => r.value === 'yard-sign-mid-city')).toMatchObject({ grossCents: 2500 });
    expect(s.byUtmSource.find((r) => r.value === 'newsletter')).toMatchObject({ netCents: 5000 });
    expect(s.oneTime).toMatchObject({ count: 1, grossCents: 5000 });
    expect(s.recurring).toMatchObject({ count: 1, grossCents: 2500 });
    expect(s.totals).toMatchObject({ count: 2, grossCents: 7500, netCents: 7500 });
    expect(s.byDay.map((d) => d.value)).toEqual(['2025-09-20', '2025-09-21']);

    for (let i = 0; i < 2; i++) expect((await deliver(fixture('refund'))).status).toBe(200);
    s = await summary('2025-09-01', '2025-09-30');
    expect(s.totals).toMatchObject({ grossCents: 7500, refunds: 1, refundedCents: 5000, netCents: 2500 });
    expect(s.byRefcode.find((r) => r.value === 'sept-email-1')).toMatchObject({ refunds: 1, netCents: 0 });
    const [refunded] = (await contributions()).filter((x) => x.orderNumber === 'AB100000001');
    expect(refunded).toMatchObject({ status: 'refunded', amountCents: 5000 });
    // A late replay of the original notification does not undo the refund.
    await deliver(fixture('contribution'));
    expect((await summary('2025-09-01', '2025-09-30')).totals.netCents).toBe(2500);
  });

  it('a cancellation marks the recurring series; the money already given stands', async () => {
    expect((await deliver(fixture('recurring'))).status).toBe(201);
    const res = await deliver(fixture('cancellation'), { path: '/api/donations/actblue/cancellations' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ kind: 'cancellation', changed: 1 });
    const s = await summary('2025-09-01', '2025-09-30');
    expect(s.cancelledRecurring).toBe(1);
    expect(s.recurring).toMatchObject({ grossCents: 2500, refunds: 0 });
    const [c] = (await contributions()).filter((x) => x.orderNumber === 'AB100000002');
    expect(c?.cancelledAt).toBe('2025-10-02T13:00:00.000Z');
  });

  it('a refund that arrives before its contribution is stored as refunded (nothing lost)', async () => {
    const early = order(900, { amount: '40.00', refcode: 'door-hanger', day: '2025-08-15' });
    const res = await deliver(early, { path: '/api/donations/actblue/refunds' });
    expect(res.status).toBe(201);
    expect(
      (await deliver(order(900, { amount: '40.00', refcode: 'door-hanger', day: '2025-08-15' }))).status,
    ).toBe(200);
    const s = await summary('2025-08-15', '2025-08-15');
    expect(s.totals).toMatchObject({ count: 1, grossCents: 4000, refunds: 1, netCents: 0 });
  });

  it('a refund whose line item carries a negated amount is a refund of that size', async () => {
    const gift = order(901, { amount: '30.00', refcode: 'neg', day: '2025-08-16' });
    expect((await deliver(gift)).status).toBe(201);
    const refund = order(901, { amount: '-30.00', refcode: 'neg', day: '2025-08-16' });
    const res = await deliver(refund);
    expect(await res.json()).toMatchObject({ kind: 'refund', changed: 1 });
    expect((await summary('2025-08-16', '2025-08-16')).totals).toMatchObject({
      count: 1,
      grossCents: 3000,
      refundedCents: 3000,
      netCents: 0,
    });
  });

  it('CSV export of the range', async () => {
    await september();
    const res = await call(adminDonations, '/api/admin/donations?from=2025-09-01&to=2025-09-30&format=csv', {
      cookie: admin,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('donations-2025-09-01-to-2025-09-30.csv');
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe('section,value,contributions,gross,refunds,refunded,net');
    expect(text).toContain('refcode,sept-email-1,1,50.00,1,50.00,0.00');
  });

  it('range errors are 400s', async () => {
    for (const q of ['from=2025-09-30&to=2025-09-01', 'from=2024-01-01&to=2025-09-01', 'from=junk'])
      expect((await call(adminDonations, `/api/admin/donations?${q}`, { cookie: admin })).status).toBe(400);
  });
});

describe('ActBlue webhook: authentication and bad bodies store nothing', () => {
  it('HTTP Basic: missing, wrong or malformed credentials -> 401 with a challenge', async () => {
    const before = (await keysOf('donations')).length;
    const cases = [
      null,
      basic(WEBHOOK_USER, 'wrong'),
      basic('someone', WEBHOOK_PASSWORD),
      basic(`${WEBHOOK_USER}x`, WEBHOOK_PASSWORD),
      `Bearer ${WEBHOOK_PASSWORD}`,
      'Basic !!!notbase64',
      `Basic ${Buffer.from('no-colon').toString('base64')}`,
    ];
    for (const authorization of cases) {
      const res = await deliver(order(1), { authorization });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="donations"');
    }
    expect((await keysOf('donations')).length).toBe(before);
  });

  it('malformed bodies -> 4xx', async () => {
    const before = (await keysOf('donations')).length;
    interface Mutable {
      contribution: Record<string, unknown>;
      lineitems: Record<string, unknown>[];
    }
    const broken = (mutate: (o: Mutable) => void) => {
      const o = order(2) as unknown as Mutable;
      mutate(o);
      return o;
    };
    const bodies: [unknown, number][] = [
      [broken((o) => delete (o as Partial<Mutable>).contribution), 400],
      [broken((o) => delete o.contribution.orderNumber), 400],
      [broken((o) => (o.contribution.orderNumber = '../../etc')), 400],
      [broken((o) => (o.lineitems = [])), 400],
      [broken((o) => (o.lineitems[0]!.amount = '5.001')), 400],
      [broken((o) => (o.lineitems[0]!.amount = 'ten')), 400],
      [broken((o) => (o.contribution.createdAt = 'yesterday')), 400],
      [broken((o) => (o.lineitems[0]!.paidAt = 'not a date')), 400],
      [[], 400],
      ['just a string', 400],
      [null, 400],
    ];
    for (const [body, status] of bodies)
      expect((await deliver(body)).status, JSON.stringify(body).slice(0, 80)).toBe(status);
    expect((await deliver(null, { raw: '{"contribution": ' })).status).toBe(400);
    expect(
      (await deliver(null, { raw: 'orderNumber=AB1', contentType: 'application/x-www-form-urlencoded' }))
        .status,
    ).toBe(415);
    expect((await deliver(null, { raw: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }) })).status).toBe(413);
    expect((await keysOf('donations')).length).toBe(before);
  });
});

describe('the public goal', () => {
  freshStoreEachTest();

  it('is off by default, then shows net raised since its start day', async () => {
    await september();
    // A gift in August, before the goal's start day.
    expect(
      (await deliver(order(902, { amount: '40.00', refcode: 'august', day: '2025-08-15' }))).status,
    ).toBe(201);
    let res = await call(goalFn, '/api/donations/goal');
    expect(await res.json()).toEqual({ goal: null });
    res = await call(adminDonations, '/api/admin/donations/goal', {
      method: 'PUT',
      cookie: admin,
      json: { enabled: true, targetDollars: 1000, label: 'September push', since: '2025-09-01' },
    });
    expect(res.status).toBe(200);
    res = await call(goalFn, '/api/donations/goal');
    expect(res.headers.get('netlify-cache-tag')).toBe('donation-goal');
    // 50 (refunded) + 25 since Sept 1: net 25.00; the August gift is before the start day.
    expect(await res.json()).toEqual({
      goal: { label: 'September push', targetCents: 100000, raisedCents: 2500 },
    });
    res = await call(adminDonations, '/api/admin/donations/goal', {
      method: 'PUT',
      cookie: admin,
      json: { enabled: true, targetDollars: 0 },
    });
    expect(res.status).toBe(400);
  });
});

function useMemory(): void {
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
}

describe.each(['production path, SDK-like fake service', 'atomic in-memory KV', 'real local Blobs server'])(
  'concurrent deliveries (%s)',
  (backend) => {
    // Both atomic stores: exactly one delivery of each order creates it.
    const memory = !backend.startsWith('real');
    let fake: Awaited<ReturnType<typeof useFakeService>> | null = null;
    beforeAll(async () => {
      if (backend.startsWith('production')) fake = await useFakeService();
      else if (backend.startsWith('atomic')) useMemory();
      else setStoreFactory(null);
    });
    afterAll(async () => {
      await fake?.stop();
      setStoreFactory(null);
    });

    it('100 concurrent deliveries of 20 distinct orders -> exactly 20 stored, every increment counted once', async () => {
      const base = memory ? 1000 : 2000;
      const day = memory ? '2025-07-01' : '2025-07-02';
      const orders = Array.from({ length: 20 }, (_, i) =>
        order(base + i, { amount: `${i + 1}.00`, refcode: i % 2 ? 'odd' : 'even', day }),
      );
      const deliveries = Array.from({ length: 100 }, (_, i) => orders[i % 20]);
      const res = await Promise.all(deliveries.map((o) => deliver(o)));
      const statuses = res.map((r) => r.status);
      expect(
        statuses.every((s) => s === 200 || s === 201),
        statuses.join(','),
      ).toBe(true);
      // Each order created once; on the local server (conditional writes not atomic) a duplicate may say 201 too.
      const created = statuses.filter((s) => s === 201).length;
      expect(created).toBeGreaterThanOrEqual(20);
      expect(created).toBeLessThanOrEqual(memory ? 20 : 100);

      const stored = (await contributions()).filter((c) => c.day === day);
      expect(stored).toHaveLength(20);
      expect(new Set(stored.map((c) => c.orderNumber)).size).toBe(20);
      const agg = DayAggregateSchema.parse((await valuesOf('donations', `agg/day/${day}`))[0]);
      expect(agg.total).toEqual({ count: 20, grossCents: 21000, refunds: 0, refundedCents: 0 });
      expect(Object.keys(agg.applied)).toHaveLength(20);
      expect(agg.refcode.find((g) => g.value === 'odd')?.count).toBe(10);
    }, 60_000);
  },
);
