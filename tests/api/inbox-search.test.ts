import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countInbox,
  INBOX_SPECS,
  inboxSummaries,
  inboxSummaryPage,
  matcher,
  type InboxFilter,
} from '../../src/lib/server/forms/inbox-summaries.ts';
import {
  noteSummary,
  type InboxSummaries,
  type TextSignupSummary,
  type VolunteerSummary,
} from '../../src/lib/server/forms/inbox-summary-shapes.ts';
import type { InboxKindName } from '../../src/lib/inbox-routes.ts';
import { CHUNK_TARGET, forgetDecodedBlobs, writeBase } from '../../src/lib/server/summaries/index-store.ts';
import { MemoryKV, setStoreFactory, type KV, type StoreName } from '../../src/lib/server/store.ts';

/*
 * The Inbox's filtered lists through the searched-text path (docs/decisions/128-search-by-text-columns.md) answer
 * exactly what testing every decoded summary with `matcher` answers: a search alone, a search with other filters
 * (language, city, ZIP, source page, dates, a `where`), other filters alone; with pending segments (new records,
 * and text sign-ups' changes that supersede a stored summary) beside a base of several chunks.
 */

let seed = 11;
const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)]!;
const NAMES = ['Ana', 'Nguyễn', 'Peña', 'Rosa', 'Minh', 'Luz', 'John'];
const CITIES = ['New Orleans', 'Metairie', 'Kenner', 'Gretna'];
const PAGES = ['/', '/volunteer', '/es/voluntario', null];
const T0 = Date.UTC(2026, 8, 1, 12);
const at = (i: number) => new Date(T0 + i * 7 * 60_000).toISOString();
const hex = (i: number) => i.toString(16).padStart(8, '0').repeat(8);

function volunteer(i: number): VolunteerSummary {
  const key = `volunteer/${hex(i)}/${hex(i + 1)}`;
  return {
    id: INBOX_SPECS.volunteers.idOf(key),
    key,
    firstName: pick(NAMES),
    lastName: pick(NAMES),
    email: `p${i % 500}@example.org`,
    phone: `504-555-${String(i % 10_000).padStart(4, '0')}`,
    city: pick(CITIES),
    state: 'LA',
    zip: `70${rand(200)}`,
    interests: rand(2) ? ['canvassing'] : ['phones', 'events'],
    lang: rand(3) ? 'en' : 'es',
    createdAt: at(i),
    suppressed: null,
    suppressedAt: null,
  };
}

function signup(i: number, over: Partial<TextSignupSummary> = {}): TextSignupSummary {
  return {
    id: `t${i}`,
    key: `person/t${i}`,
    firstName: pick(NAMES),
    phone: `+1504555${String(i % 10_000).padStart(4, '0')}`,
    email: rand(2) ? `s${i}@example.org` : null,
    smsStatus: rand(5) ? 'subscribed' : 'opted_out',
    consentAt: at(i),
    consentVersion: 'v1',
    optedOutAt: null,
    lang: rand(3) ? 'en' : 'es',
    sourcePage: pick(PAGES),
    createdAt: at(i),
    updatedAt: at(i),
    ...over,
  };
}

const N = 2 * CHUNK_TARGET + 900;

beforeAll(async () => {
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
  await writeBase(
    INBOX_SPECS.volunteers,
    Array.from({ length: N }, (_, i) => volunteer(i)),
  );
  for (let i = N; i < N + 5; i++) await noteSummary('volunteers', volunteer(i));
  await writeBase(
    INBOX_SPECS['text-signups'],
    Array.from({ length: N }, (_, i) => signup(i)),
  );
  // Changes of stored sign-ups (in the oldest chunk: the newer two are searched by their text), one of them
  // a STOP, and new sign-ups.
  for (let i = 0; i < 8; i++) {
    const which = rand(900);
    await noteSummary(
      'text-signups',
      signup(which, { firstName: 'Changed Ana', smsStatus: 'opted_out', updatedAt: at(N + 50 + i) }),
    );
  }
  for (let i = N; i < N + 5; i++) await noteSummary('text-signups', signup(i));
});
afterAll(() => setStoreFactory(null));

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const s of items) out.push(s);
  return out;
}

const ids = (rows: { id: string }[]) => rows.map((s) => s.id);

async function check<K extends InboxKindName>(
  kind: K,
  filter: InboxFilter<InboxSummaries[K]>,
  offset: number,
) {
  const every = await collect(inboxSummaries(kind));
  const expected = every.filter(matcher(kind, filter));
  const page = await inboxSummaryPage(kind, filter, offset, 50);
  expect(page.total).toBe(expected.length);
  expect(ids(page.rows)).toEqual(ids(expected.slice(offset, offset + 50)));
  expect(await countInbox(kind, filter)).toBe(expected.length);
  expect(ids(await collect(inboxSummaries(kind, filter)))).toEqual(ids(expected));
}

const day = fc
  .integer({ min: 0, max: 60 })
  .map((d) => new Date(T0 + d * 86_400_000).toISOString().slice(0, 10));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const needle = maybe(
  fc.constantFrom('ana', 'NGUYỄN', ' peña ', 'metairie', '504-555-1', 'p4', 'español', 'zzz'),
);

describe("the filters read only the chunks' columns", () => {
  it.each(Object.keys(INBOX_SPECS) as InboxKindName[])('%s', (kind) => {
    const spec = INBOX_SPECS[kind];
    const columns = new Set<string>(spec.columns);
    const read: string[] = [];
    // A summary that passes every filter below (so each filter's every test runs), noting what is read.
    const passing: Record<string, string> = {
      lang: 'es',
      createdAt: '2026-09-15T12:00:00.000Z',
      city: 'Kenner',
      zip: '70112',
      sourcePage: '/',
    };
    const probe = new Proxy({} as InboxSummaries[typeof kind], {
      get: (_, field) => {
        if (typeof field === 'string' && !columns.has(field)) read.push(field);
        return typeof field === 'string' ? passing[field] : undefined;
      },
    });
    const every = {
      lang: 'es',
      city: 'kenner',
      zip: '701',
      sourcePage: '/',
      from: '2026-09-01',
      to: '2026-09-30',
    } as const;
    for (const [name, value] of Object.entries(every)) matcher(kind, { [name]: value })(probe);
    matcher(kind, every)(probe);
    expect(read).toEqual([]);
  });
});

describe('filtered Inbox lists: the searched-text path answers what decoding every summary answers', () => {
  it('volunteers: search, language, city, ZIP, dates, in any combination', async () => {
    expect((await collect(inboxSummaries('volunteers'))).length).toBe(N + 5);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          q: needle,
          lang: maybe(fc.constantFrom('en' as const, 'es' as const)),
          city: maybe(fc.constantFrom('metairie', 'Kenner')),
          zip: maybe(fc.constantFrom('701', '70')),
          from: maybe(day),
          to: maybe(day),
        }),
        fc.constantFrom(0, 50, 1_000),
        fc.boolean(),
        async (filter, offset, cold) => {
          if (cold) forgetDecodedBlobs();
          await check('volunteers', filter, offset);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('text sign-ups: search, source page and a `where`, with changes pending', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          q: needle,
          sourcePage: maybe(fc.constantFrom('/', '/es/voluntario')),
          where: maybe(fc.constant((s: TextSignupSummary) => s.smsStatus === 'subscribed')),
        }),
        fc.constantFrom(0, 50),
        async (filter, offset) => check('text-signups', filter, offset),
      ),
      { numRuns: 30 },
    );
    // A pending change is found by its new text, never by its old one.
    const changed = await inboxSummaryPage('text-signups', { q: 'changed ana' }, 0, 50);
    expect(changed.total).toBeGreaterThan(0);
    expect(changed.rows.every((s) => s.smsStatus === 'opted_out')).toBe(true);
  });
});
