import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Audience } from '../../src/lib/schemas/broadcasts.ts';
import { VolunteerSignupSchema } from '../../src/lib/schemas/forms.ts';
import { audiencePages, type Recipient } from '../../src/lib/server/broadcasts/audiences.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { bulkInsertInbox } from '../../src/lib/server/inbox/bulk.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { volunteerRecord } from '../../src/lib/server/public-forms/submissions.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';

/*
 * A filtered audience of an Inbox list costs what the audience holds, not what the list holds
 * (docs/decisions/152-broadcasts.md): its candidates come from the list's
 * summary index, and only their records are read. And it is the same audience as reading every record
 * and filtering it (audiences.ts's `matches`), for any combination of filters.
 */

const N = 6_000;
const CITIES = ['New Orleans', 'Metairie', 'Kenner', 'Gretna'];
const T0 = Date.parse('2026-08-01T15:00:00.000Z');
let stores: CountingStores;

/** Volunteer i of the fixture, as written and as the slow way below filters it (the last two in a town of their own). */
const volunteer = (i: number) => {
  const town = i >= N ? 'Lafitte' : CITIES[i % CITIES.length]!;
  return {
    town,
    zip: town === 'Lafitte' ? '70067' : `701${String(10 + (i % 20))}`,
    lang: i % 3 === 1 ? ('es' as const) : ('en' as const),
    email: `volunteer.${i}@example.org`,
    phone: `+1504${String(3_000_000 + i)}`,
    at: new Date(T0 + i * 600_000),
  };
};

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  stores = useCountingStores();
  const meta = { ip: '192.0.2.9', userAgent: 'broadcast-audience-scale.test.ts' };
  await bulkInsertInbox(
    'volunteers',
    Array.from({ length: N + 2 }, (_, i) => {
      const v = volunteer(i);
      return volunteerRecord(
        VolunteerSignupSchema.parse({
          firstName: v.lang === 'es' ? 'Lucía' : 'James',
          lastName: `Tester${i}`,
          email: v.email,
          phone: v.phone,
          address1: `${i} Magazine St`,
          city: v.town,
          state: 'LA',
          zip: v.zip,
          interests: ['Canvassing'],
          captchaResponse: 'seed',
          lang: v.lang,
        }),
        meta,
        v.at,
      );
    }),
  );
});
afterAll(() => setStoreFactory(null));

async function recipients(channel: 'text' | 'email', audience: Audience): Promise<Recipient[]> {
  const out: Recipient[] = [];
  for await (const page of audiencePages({ channel, audience }, 0)) out.push(...page.recipients);
  return out.sort((a, b) => a.k.localeCompare(b.k));
}

describe('a filtered volunteer audience', () => {
  it('two volunteers in a town of their own: reads the index and their two records, of 6,002', async () => {
    const { calls, value } = await stores.cost(() =>
      recipients('email', { kind: 'volunteers', place: 'Lafitte' }),
    );
    expect(value.map((r) => r.to).sort()).toEqual([
      `volunteer.${N}@example.org`,
      `volunteer.${N + 1}@example.org`,
    ]);
    // The index's manifest, its two chunks of up to 5,000 summaries, the outstanding segments' listing, and
    // the two records.
    expect(stores.counts('volunteers').get).toBeLessThanOrEqual(4);
    expect(calls).toBeLessThanOrEqual(8);
    // The whole list still pages through its records: every one read.
    const all = await stores.cost(() => recipients('email', { kind: 'volunteers' }));
    expect(all.value.length).toBe(N + 2);
    expect(stores.counts('volunteers').get).toBeGreaterThanOrEqual(N + 2);
  });

  it('is the audience reading every record gives, for any filters', async () => {
    // The brute force: every record through the unfiltered path, then the same filters.
    const everyone = await recipients('email', { kind: 'volunteers' });
    const byEmail = new Map(everyone.map((r) => [r.to, r]));
    const day = fc
      .integer({ min: 0, max: 45 })
      .map((d) => new Date(T0 + d * 86_400_000).toISOString().slice(0, 10));
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          lang: maybe(fc.constantFrom('en' as const, 'es' as const)),
          place: maybe(fc.constantFrom('kenner', 'Gretna ', '70067', '70115', '70112', 'Lafitte', 'Nowhere')),
          signedUpFrom: maybe(day),
          signedUpTo: maybe(day),
        }),
        fc.constantFrom('text' as const, 'email' as const),
        async (filters, channel) => {
          const audience: Audience = { kind: 'volunteers', ...filters };
          const got = await recipients(channel, audience);
          // The slow way, record by record: the volunteer's index (its email), then the same filters.
          const expected: string[] = [];
          for (let i = 0; i < N + 2; i++) {
            const v = volunteer(i);
            const joined = v.at.toISOString().slice(0, 10);
            const place = filters.place?.trim().toLowerCase();
            if (filters.lang && v.lang !== filters.lang) continue;
            if (place && v.town.toLowerCase() !== place && v.zip !== place) continue;
            if (filters.signedUpFrom && joined < filters.signedUpFrom) continue;
            if (filters.signedUpTo && joined > filters.signedUpTo) continue;
            expected.push(channel === 'email' ? v.email : v.phone);
          }
          expect(got.map((r) => r.to).sort()).toEqual(expected.sort());
          // An email recipient is its subscriber's row as listed (texts have no such list here).
          expect(channel === 'email' ? got.map((r) => byEmail.get(r.to)) : got).toEqual(got);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
