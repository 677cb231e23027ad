import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countInbox,
  INBOX_SPECS,
  inboxSummaries,
  inboxSummaryPage,
  matcher,
  type InboxFilter,
} from '../../src/lib/server/inbox/summaries.ts';
import {
  noteSummary,
  type InboxSummaries,
  type TextSignupSummary,
  type VolunteerSummary,
} from '../../src/lib/server/inbox/summary-shapes.ts';
import { forgetDecodedBlobs } from '../../src/lib/server/storage/summary-index/blob-cache.ts';
import { writeBase } from '../../src/lib/server/storage/summary-index/rebuild.ts';
import { CHUNK_TARGET } from '../../src/lib/server/storage/summary-index/spec.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import type { InboxKindName } from '../../src/lib/inbox-kinds.ts';

/*
 * The Inbox's filtered lists through the searched-text path (docs/decisions/155-inbox-and-staff-lists.md) answer
 * exactly what a plain reading of the filters over the SEEDED records answers (`expected` below: lowercase
 * `includes` over the records' fields, calendar days with explicit UTC offsets), never the search's own matcher:
 * a search alone, a search with other filters (language, city, ZIP, source page, dates, a `where`), other
 * filters alone; with pending segments (new records, and text sign-ups' changes that supersede a stored
 * summary) beside a base of several chunks. Each filter also has cases where it changes the answer.
 */

// mulberry32: a small deterministic generator whose draws are independent enough that every combination of
// name, city, page, status and language occurs (the low bits of a plain LCG repeat every few draws).
let seed = 11;
const rand = (n: number) => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
};
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

/**
 * Every record seeded, by id, as the Inbox must list it (a later change of a sign-up replaces it): the
 * oracle's input. The base's times run from 1 September 2026 every 7 minutes (to 24 October).
 */
const seeded = {
  volunteers: new Map<string, VolunteerSummary>(),
  'text-signups': new Map<string, TextSignupSummary>(),
};
type Kind = keyof typeof seeded;

/**
 * Volunteers on either side of the campaign's midnights, added as pending records: 04:59:59.999Z on
 * 8 September is still the 7th in New Orleans (CDT, UTC-05:00) but the 8th in UTC; on 1-2 November the
 * zone falls back to CST (UTC-06:00), so 05:30Z on 2 November is still the 1st there.
 */
const EDGES = {
  sept7Late: '2026-09-08T04:59:59.999Z',
  sept8Midnight: '2026-09-08T05:00:00.000Z',
  oct31Late: '2026-11-01T04:30:00.000Z',
  nov1Late: '2026-11-02T05:30:00.000Z',
  nov2Midnight: '2026-11-02T06:00:00.000Z',
} as const;
const edgeId: Record<string, string> = {};

beforeAll(async () => {
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
  const note = <K extends Kind>(kind: K, s: InboxSummaries[K]) => {
    (seeded[kind] as Map<string, InboxSummaries[K]>).set(s.id, s);
    return s;
  };
  await writeBase(
    INBOX_SPECS.volunteers,
    Array.from({ length: N }, (_, i) => note('volunteers', volunteer(i))),
  );
  for (let i = N; i < N + 5; i++) await noteSummary('volunteers', note('volunteers', volunteer(i)));
  for (const [name, createdAt] of Object.entries(EDGES)) {
    const v = note('volunteers', { ...volunteer(N + 100 + Object.keys(edgeId).length), createdAt });
    edgeId[name] = v.id;
    await noteSummary('volunteers', v);
  }
  await writeBase(
    INBOX_SPECS['text-signups'],
    Array.from({ length: N }, (_, i) => note('text-signups', signup(i))),
  );
  // Changes of stored sign-ups (in the oldest chunk: the newer two are searched by their text), one of them
  // a STOP, and new sign-ups.
  for (let i = 0; i < 8; i++) {
    const which = rand(900);
    await noteSummary(
      'text-signups',
      note(
        'text-signups',
        signup(which, { firstName: 'Changed Ana', smsStatus: 'opted_out', updatedAt: at(N + 50 + i) }),
      ),
    );
  }
  for (let i = N; i < N + 5; i++) await noteSummary('text-signups', note('text-signups', signup(i)));
});
afterAll(() => setStoreFactory(null));

// ---------------------------------------------------------------------------
// The oracle: the filters as the Inbox describes them to staff, written out plainly.

const LANGUAGE = { en: 'English', es: 'Spanish' } as const;
const SEARCHED: { [K in Kind]: (s: InboxSummaries[K]) => string[] } = {
  volunteers: (s) => [
    s.firstName,
    s.lastName,
    s.email,
    s.phone,
    s.city,
    s.state,
    s.zip,
    ...s.interests,
    LANGUAGE[s.lang],
  ],
  'text-signups': (s) => [
    s.firstName,
    s.phone ?? '',
    s.email ?? '',
    s.smsStatus,
    s.sourcePage ?? '',
    LANGUAGE[s.lang],
  ],
};

/** New Orleans leaves daylight time at 2 a.m. CDT on 1 November 2026. */
const FALL_BACK = Date.parse('2026-11-01T02:00:00-05:00');
const SPRING_FORWARD = Date.parse('2026-03-08T02:00:00-06:00');
/** The campaign calendar day (YYYY-MM-DD) of an instant of the 2026 daylight period or just after. */
function campaignDay(iso: string): string {
  const t = Date.parse(iso);
  if (t < SPRING_FORWARD) throw new Error(`the oracle knows the offsets from 8 March 2026 only: ${iso}`);
  const offsetHours = t < FALL_BACK ? -5 : -6;
  return new Date(t + offsetHours * 3_600_000).toISOString().slice(0, 10);
}

type Row = VolunteerSummary | TextSignupSummary;

/** What a list filtered so must hold, newest first. */
function expected<K extends Kind>(kind: K, filter: InboxFilter<InboxSummaries[K]>): InboxSummaries[K][] {
  const needle = (filter.q ?? '').trim().toLowerCase();
  const rows = [...seeded[kind].values()] as InboxSummaries[K][];
  const facets = (s: Row) => s as { city?: string; zip?: string; sourcePage?: string | null };
  return (
    rows
      .filter((s) => {
        if (needle !== '' && !SEARCHED[kind](s).join(' ').toLowerCase().includes(needle)) return false;
        if (filter.lang !== undefined && s.lang !== filter.lang) return false;
        if (filter.city !== undefined && facets(s).city?.toLowerCase() !== filter.city.trim().toLowerCase())
          return false;
        if (filter.zip !== undefined && facets(s).zip?.startsWith(filter.zip.trim()) !== true) return false;
        if (filter.sourcePage !== undefined && facets(s).sourcePage !== filter.sourcePage) return false;
        if (filter.from !== undefined && campaignDay(s.createdAt) < filter.from) return false;
        if (filter.to !== undefined && campaignDay(s.createdAt) > filter.to) return false;
        return filter.where === undefined || filter.where(s);
      })
      // Newest first; records of the same instant by id, the larger first.
      .sort((a, b) =>
        a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1,
      )
  );
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const s of items) out.push(s);
  return out;
}

const ids = (rows: { id: string }[]) => rows.map((s) => s.id);

async function check<K extends Kind>(kind: K, filter: InboxFilter<InboxSummaries[K]>, offset: number) {
  const want = expected(kind, filter);
  const page = await inboxSummaryPage(kind, filter, offset, 50);
  expect(page.total).toBe(want.length);
  expect(ids(page.rows)).toEqual(ids(want.slice(offset, offset + 50)));
  expect(await countInbox(kind, filter)).toBe(want.length);
  expect(ids(await collect(inboxSummaries(kind, filter)))).toEqual(ids(want));
}

// Days from 1 September to 9 November 2026: across the base, the pending edges and the change of offset.
const day = fc
  .integer({ min: 0, max: 69 })
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

describe('filtered Inbox lists answer what the plain reading of the filters over the seeded records answers', () => {
  it.each(['volunteers', 'text-signups'] as const)(
    '%s, unfiltered: every record seeded, newest first',
    async (kind) => {
      expect(seeded.volunteers.size).toBe(N + 5 + Object.keys(EDGES).length);
      expect(ids(await collect(inboxSummaries(kind)))).toEqual(ids(expected(kind, {})));
    },
  );

  it('volunteers: search, language, city, ZIP, dates, in any combination', async () => {
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
          lang: maybe(fc.constantFrom('en' as const, 'es' as const)),
          sourcePage: maybe(fc.constantFrom('/', '/es/voluntario')),
          from: maybe(day),
          to: maybe(day),
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

/**
 * Each filter where it changes the answer: [label, kind, filter, the filter without the part under test].
 * The answer must be some of what the looser filter finds, not none and not all of it.
 */
const MATTERS: [string, Kind, InboxFilter<Row>, InboxFilter<Row>][] = [
  ['a name, any case', 'volunteers', { q: 'NGUYỄN' }, {}],
  ['a phone number part', 'volunteers', { q: '504-555-12' }, {}],
  ['an interest', 'volunteers', { q: 'canvassing' }, {}],
  ['the language as staff read it', 'volunteers', { q: 'spanish' }, {}],
  ['a search with a language', 'volunteers', { q: 'rosa', lang: 'es' }, { q: 'rosa' }],
  ['language', 'volunteers', { lang: 'es' }, {}],
  ['city, any case and spaces', 'volunteers', { city: ' METAIRIE ' }, {}],
  ['city with a search', 'volunteers', { q: 'ana', city: 'kenner' }, { q: 'ana' }],
  ['ZIP start', 'volunteers', { zip: '701' }, {}],
  ['ZIP with a language', 'volunteers', { zip: '701', lang: 'en' }, { lang: 'en' }],
  ['from', 'volunteers', { from: '2026-10-01' }, {}],
  ['to', 'volunteers', { to: '2026-09-10' }, {}],
  ['one day', 'volunteers', { from: '2026-09-08', to: '2026-09-08' }, {}],
  ['dates with a search', 'volunteers', { q: 'luz', from: '2026-09-20', to: '2026-10-05' }, { q: 'luz' }],
  ['source page, exactly', 'text-signups', { sourcePage: '/' }, {}],
  ['source page with a search', 'text-signups', { sourcePage: '/es/voluntario', q: 'minh' }, { q: 'minh' }],
  ['language of sign-ups', 'text-signups', { lang: 'en' }, {}],
  ['dates of sign-ups', 'text-signups', { from: '2026-09-03', to: '2026-09-04' }, {}],
  ['a pending change, by its new text', 'text-signups', { q: 'changed ana' }, {}],
];

describe('each filter where it changes the answer', () => {
  it.each(MATTERS)('%s', async (_label, kind, filter, looser) => {
    const want = expected(kind, filter);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(expected(kind, looser).length);
    await check(kind, filter, 0);
  });

  it.each([
    ['a city is a whole name, not its start', 'volunteers', { city: 'metai' }],
    ['a source page is exact, not a prefix', 'text-signups', { sourcePage: '/es' }],
    ['volunteers have no source page', 'volunteers', { sourcePage: '/' }],
    ['text sign-ups have no city', 'text-signups', { city: 'kenner' }],
    ['a range that ends before it starts', 'volunteers', { from: '2026-09-10', to: '2026-09-09' }],
  ] as [string, Kind, InboxFilter<Row>][])('%s: nothing', async (_label, kind, filter) => {
    expect(expected(kind, filter)).toEqual([]);
    await check(kind, filter, 0);
  });

  it('days are the campaign’s, with its offset on each side of the change back to standard time', async () => {
    const day = (d: string) => ids(expected('volunteers', { from: d, to: d }));
    // The oracle itself, pinned on the edges (UTC-05:00 in September, UTC-06:00 after 1 November).
    expect(day('2026-09-07')).toContain(edgeId.sept7Late);
    expect(day('2026-09-08')).toContain(edgeId.sept8Midnight);
    expect(day('2026-09-08')).not.toContain(edgeId.sept7Late);
    expect(day('2026-10-31')).toEqual([edgeId.oct31Late]);
    expect(day('2026-11-01')).toEqual([edgeId.nov1Late]);
    expect(day('2026-11-02')).toEqual([edgeId.nov2Midnight]);
    for (const d of ['2026-09-07', '2026-09-08', '2026-10-31', '2026-11-01', '2026-11-02'])
      await check('volunteers', { from: d, to: d }, 0);
    await check('volunteers', { from: '2026-10-31', to: '2026-11-01' }, 0);
  });
});
