import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminPeople from '../../netlify/functions/admin-people.mts';
import * as contactFn from '../../netlify/functions/contact.mts';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { bridgeOf, lookupKey, personKey } from '../../src/lib/server/people/keys.ts';
import { consentFor } from '../../src/lib/server/people/consent.ts';
import { link, type LinkInput } from '../../src/lib/server/people/link.ts';
import type { Person } from '../../src/lib/server/people/person.ts';
import { forgetDecodedBlobs } from '../../src/lib/server/storage/summary-index/blob-cache.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { callsOf, useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { localProviders, uniqueIp, validContact, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * A form write costs the same number of store calls with 1,000 people in the store as with 100,000
 * (docs/decisions/149-people.md, "Store layout"), on the atomic in-memory store behind a counting wrapper. The
 * people are written straight into the store (what that many sign-ups leave: the person, the two lookups, the
 * bridge), uncounted.
 */

/** The people part of a form write: two lookup reads, the person, the lookups claimed, the timeline, the segment. */
const BOUNDS = {
  /** A new person: lookups read (2), person created, two lookups claimed and the bridge, timeline, segment (8). */
  linkNew: 8,
  /** A person found: lookups read (2), person read and compare-and-set, timeline, segment (6). */
  linkExisting: 6,
  /** Ambiguous: a new person, the free lookup claimed, the queue entry (8). */
  linkQueued: 9,
  /** What a guard asks: the lookup and the person (2). */
  consent: 2,
  /**
   * A search or any filter, at any size: the session and user, the manifest with the segment listing, the bundle
   * (docs/decisions/155-inbox-and-staff-lists.md).
   */
  search: 6,
} as const;

let counting: CountingStores;
let seeded = 0;
let editor: string;

function seededPerson(i: number): Person {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return {
    id: i.toString(16).padStart(32, '0'),
    names: [`Seeded Person ${i}`],
    emails: [`seeded${i}@example.org`],
    phones: [`+1504${String(2_000_000 + i).padStart(7, '0')}`],
    zip: '70119',
    city: 'New Orleans',
    lang: 'en',
    sources: ['volunteer'],
    own: {},
    consent: {},
    mergedInto: null,
    merged: [],
    createdAt: at,
    updatedAt: at,
    rev: 1,
  };
}

/** Seeds people up to `n` (the person, both lookups and the bridge each), uncounted. */
async function seedTo(n: number): Promise<void> {
  const inner = counting.store('people').inner;
  for (; seeded < n; seeded++) {
    const p = seededPerson(seeded + 1);
    await inner.put(personKey(p.id), p);
    await inner.put(lookupKey('email', p.emails[0]!), { id: p.id });
    await inner.put(lookupKey('phone', p.phones[0]!), { id: p.id });
    await inner.put(bridgeOf(p.emails[0]!), { id: p.id });
  }
}

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  localProviders();
  counting = useCountingStores();
  editor = (await signedIn('editor')).cookie;
});
afterAll(() => setStoreFactory(null));

let n = 0;
const base = (over: Partial<LinkInput>): LinkInput => ({
  source: 'volunteer',
  store: 'volunteers',
  key: `volunteer/x/${++n}`,
  at: new Date(Date.UTC(2026, 9, 1, 12, n)),
  ...over,
});

/** The store calls of each kind of write with the store as it is. */
async function costs() {
  const cost = (work: () => Promise<unknown>) => callsOf(counting, work);
  n += 1;
  const fresh = {
    email: `fresh${n}@example.org`,
    phone: `+1504777${String(n).padStart(4, '0')}`,
    name: 'New One',
  };
  const known = seededPerson(7 + n);
  const out = {
    linkNew: await cost(() => link(base(fresh))),
    linkExisting: await cost(() =>
      link(base({ email: known.emails[0], phone: known.phones[0], name: known.names[0] })),
    ),
    linkQueued: await cost(() =>
      link(
        base({
          email: known.emails[0],
          phone: `+1504888${String(n).padStart(4, '0')}`,
          name: 'Someone Else',
        }),
      ),
    ),
    consent: await cost(() => consentFor('text', known.phones[0]!)),
    // Whole form writes through their handlers (limits, captcha, record, summary, email, and the person).
    volunteer: await cost(() =>
      call(volunteersFn, '/api/volunteers-sendgrid', {
        json: validVolunteer({ email: `vol${n}@example.org`, phone: `504-666-${String(1000 + n)}` }),
        ip: uniqueIp(),
      }),
    ),
    contact: await cost(() =>
      call(contactFn, '/api/contact', { json: validContact({ email: `c${n}@example.org` }), ip: uniqueIp() }),
    ),
    newsletter: await cost(() =>
      call(newsletterFn, '/api/email-subscribers', {
        json: { email: `n${n}@example.org`, captcha: TURNSTILE_TEST_TOKEN },
        ip: uniqueIp(),
      }),
    ),
  };
  return out;
}

/** The People index, dropped so the next read rebuilds it from the records (seeded people have no segments). */
async function dropIndex(): Promise<void> {
  const inner = counting.store('people').inner;
  const keys: string[] = [];
  for await (const page of inner.keys('summary/')) keys.push(...page);
  for (const k of keys) await inner.delete(k);
  forgetDecodedBlobs();
}

/**
 * What the People search and filters cost with the store as it is (docs/decisions/149-people.md, "Tags, notes and
 * filters"): each reads the index only (the manifest, the segment listing, the segments, the bundle of every
 * chunk), never a person and never one chunk per CHUNK_TARGET people, so every filter costs what a plain search
 * costs, and the same at any size.
 */
async function filterCosts() {
  await dropIndex();
  expect((await call(adminPeople, '/api/admin/people', { cookie: editor })).status).toBe(200);
  const cost = async (query: string) => {
    forgetDecodedBlobs();
    let status = 0;
    const calls = await callsOf(counting, async () => {
      status = (await call(adminPeople, `/api/admin/people?${query}`, { cookie: editor })).status;
    });
    expect(status, query).toBe(200);
    return calls;
  };
  const queries = [
    'source=volunteer',
    'source=volunteer&zip=70119',
    'tag=canvasser',
    'lang=es',
    'email=granted',
    'text=revoked',
    'email=none',
    'has=volunteered',
    'hasNot=volunteered',
    'has=rsvp:12',
    'hasNot=rsvp:12',
    'has=attended',
    'has=plan',
    'hasNot=plan',
    'has=donated',
    'has=volunteered&hasNot=rsvp:12,attended&tag=canvasser',
    'has=attended&hasNot=plan&lang=en&email=granted&text=none',
    'has=donated,rsvp:7',
    'q=seeded%20person&source=volunteer',
  ];
  const filters: Record<string, number> = {};
  for (const q of queries) filters[q] = await cost(q);
  return { search: await cost('q=seeded%20person%2042'), filters };
}

describe('store calls per form write, at 1,000 and at 100,000 people', () => {
  // One test: the sizes are steps of one store (the order of tests is shuffled).
  it('each write costs the same at both sizes, within the design bounds; the list, the filters and a person page are bounded', async () => {
    await seedTo(1000);
    const small = await costs();
    const smallFilters = await filterCosts();
    await seedTo(100_000);
    const large = await costs();
    const largeFilters = await filterCosts();
    expect(large).toEqual(small);
    // The search and every filter read the index only, its chunks as one bundle: the same calls at 1,000 and at
    // 100,000 people (20 chunks of CHUNK_TARGET), each filter what the search costs.
    console.info('[people filters] store calls at 1,000 and 100,000 people:', smallFilters, largeFilters);
    expect(largeFilters).toEqual(smallFilters);
    expect(Object.values(largeFilters.filters)).toEqual(
      Object.values(largeFilters.filters).map(() => largeFilters.search),
    );
    expect(largeFilters.search).toBeLessThanOrEqual(BOUNDS.search);
    expect(small.linkNew).toBeLessThanOrEqual(BOUNDS.linkNew);
    expect(small.linkExisting).toBeLessThanOrEqual(BOUNDS.linkExisting);
    expect(small.linkQueued).toBeLessThanOrEqual(BOUNDS.linkQueued);
    expect(small.consent).toBeLessThanOrEqual(BOUNDS.consent);

    // The People list and a person page read a bounded number of blobs at 100,000.
    forgetDecodedBlobs();
    // The first read builds the index from the records (once); later reads are bounded.
    const first = await call(adminPeople, '/api/admin/people', { cookie: editor });
    expect(first.status).toBe(200);
    forgetDecodedBlobs();
    let res!: Response;
    const calls = await callsOf(counting, async () => {
      res = await call(adminPeople, '/api/admin/people?page=3', { cookie: editor });
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { total: number }).total).toBeGreaterThanOrEqual(100_000);
    expect(calls).toBeLessThanOrEqual(30);
    const person = await callsOf(counting, async () => {
      res = await call(adminPeople, `/api/admin/people/${seededPerson(42).id}`, { cookie: editor });
    });
    expect(res.status).toBe(200);
    expect(person).toBeLessThanOrEqual(12);
  }, 600_000);
});
