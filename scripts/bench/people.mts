/**
 * The People list's search and filters at 100,000 people (docs/decisions/149-people.md, "Tags, notes and filters").
 * Prints a markdown section for docs/benchmarks.md.
 *   flock /tmp/campaign-heavy.lock npm run bench        (BENCH_ONLY=people: this section alone)
 *   flock /tmp/campaign-heavy.lock npm exec -- node scripts/bench/people.mts
 * (BENCH_PEOPLE=N people, default 100,000; BENCH_RUNS=cold samples per query, default 5.)
 *
 * A fresh local Blobs server filled straight through its directory (DirectoryKV, as the scale seed does): N
 * person records with varied sources, tags, languages, consent states, RSVPs,
 * check-ins, plans and donations, and the People index written once by the bulk path (writeBase: its chunks,
 * counts and bundle). admin-people served on loopback with an editor's session. Per query: the very first request
 * in this process (module and store cold), then cold requests (nothing decoded kept, as a fresh function
 * instance) and warm ones, medians; and the store calls one cold request makes (a counting wrapper over the same
 * store, a listed page counting as a call).
 */
import type { Person } from '../../src/lib/server/people/person.ts';
import { benchBlobsStore, serveFunctions, storeCallCounter } from './serve.mts';

const N = Number(process.env.BENCH_PEOPLE ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const QUERIES: [string, string][] = [
  ['page 1, no search', ''],
  ['search: a name', 'q=person%2077777'],
  ['search: a city', 'q=metairie'],
  ['search: an email', 'q=bench77777%40example.org'],
  ['source: volunteer', 'source=volunteer'],
  ['tag: canvasser', 'tag=canvasser'],
  ['language: es', 'lang=es'],
  ['email consent: revoked', 'email=revoked'],
  ['text consent: none', 'text=none'],
  ['has volunteered', 'has=volunteered'],
  ['has not volunteered', 'hasNot=volunteered'],
  ["RSVP'd to event 7", 'has=rsvp:7'],
  ['attended', 'has=attended'],
  ['made a plan', 'has=plan'],
  ['donated', 'has=donated'],
  ['volunteers in 70119 with no RSVP to 7', 'has=volunteered&zip=70119&hasNot=rsvp:7'],
  ['search and filter', 'q=metairie&lang=es&has=plan'],
];

export async function benchPeople(): Promise<string> {
  // The local adapters log what they store: kept quiet while seeding and measuring.
  const log = console.log;
  const info = console.info;
  console.log = () => {};
  console.info = () => {};
  const store = await benchBlobsStore();
  try {
    const { setStoreFactory, kv } = await import('../../src/lib/server/storage/stores.ts');
    const { DirectoryKV } = await import('../lib/directory-kv.mts');
    const { mapLimit } = await import('../../src/lib/server/storage/map-limit.ts');
    const { writeBase } = await import('../../src/lib/server/storage/summary-index/rebuild.ts');
    const { forgetDecodedBlobs } = await import('../../src/lib/server/storage/summary-index/blob-cache.ts');
    const { PEOPLE_SPEC } = await import('../../src/lib/server/people/staff.ts');
    const { summarizePerson } = await import('../../src/lib/server/people/person.ts');
    const { personKey } = await import('../../src/lib/server/people/keys.ts');
    const { createUser } = await import('../../src/lib/server/auth/users.ts');
    const { createSessionCookie } = await import('../../src/lib/server/auth/session.ts');

    const T0 = Date.UTC(2025, 0, 1);
    const person = (i: number): Person => {
      const at = new Date(T0 + i * 60_000).toISOString();
      const sources: Person['sources'] = [
        ...(i % 3 === 0 ? (['volunteer'] as const) : []),
        ...(i % 2 === 0 ? (['text_signup'] as const) : (['newsletter'] as const)),
        ...(i % 5 === 0 ? (['rsvp'] as const) : []),
        ...(i % 7 === 0 ? (['vote_plan'] as const) : []),
        ...(i % 11 === 0 ? (['donation'] as const) : []),
      ];
      const consent = (k: number) =>
        k % 4 === 0 ? undefined : ({ state: k % 4 === 1 ? 'revoked' : 'granted', at, via: 'form' } as const);
      return {
        id: i.toString(16).padStart(32, '0'),
        names: [`Bench Person ${i}`],
        emails: [`bench${i}@example.org`],
        phones: [`+1504${String(2_000_000 + i).padStart(7, '0')}`],
        zip: ['70119', '70115', '70001', '70003'][i % 4]!,
        city: ['New Orleans', 'New Orleans', 'Metairie', 'Kenner'][i % 4]!,
        lang: i % 3 === 1 ? 'es' : 'en',
        sources,
        own: {},
        consent: {
          ...(consent(i) ? { email: consent(i) } : {}),
          ...(consent(i >> 2) ? { text: consent(i >> 2) } : {}),
        },
        mergedInto: null,
        merged: [],
        createdAt: at,
        updatedAt: at,
        rev: 1,
        tags: i % 13 === 0 ? ['canvasser'] : i % 17 === 0 ? ['phonebank', 'driver'] : [],
        events: i % 5 === 0 ? [1 + (i % 9)] : [],
        attended: i % 10 === 0 ? [1 + (i % 9)] : [],
      };
    };

    const seeded = Date.now();
    setStoreFactory((name) => new DirectoryKV(store.directory, store.siteID, name));
    const summaries = [];
    const people = kv('people');
    for (let from = 0; from < N; from += 5000) {
      const batch = Array.from({ length: Math.min(5000, N - from) }, (_, j) => person(from + j + 1));
      // The person records only: the list, its search and its filters never read a lookup.
      await mapLimit(batch, 64, (p) => people.put(personKey(p.id), p));
      summaries.push(...batch.map(summarizePerson));
    }
    await writeBase(PEOPLE_SPEC, summaries);
    setStoreFactory(null);
    const seedMs = Date.now() - seeded;

    const editor = await createUser({
      username: 'bench-people-editor',
      email: 'bench-people-editor@example.org',
      password: 'bench-people-editor-password',
      role: 'editor',
    });
    const cookie = (await createSessionCookie(editor)).split(';')[0]!;
    const server = await serveFunctions([await import('../../netlify/functions/admin-people.mts')]);

    // Store calls per request: a counting wrapper over the same stores (a listing counts once per page).
    const storeCalls = storeCallCounter();
    const timed = async (query: string) => {
      const t = performance.now();
      const res = await fetch(`${server.url}/api/admin/people${query ? `?${query}` : ''}`, {
        headers: { cookie },
      });
      if (!res.ok) throw new Error(`${query}: ${res.status} ${await res.text()}`);
      const { total } = (await res.json()) as { total: number };
      return { ms: performance.now() - t, total };
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

    const rows: string[] = [];
    let first = true;
    for (const [label, query] of QUERIES) {
      forgetDecodedBlobs();
      const veryFirst = await timed(query);
      const cold: number[] = [];
      const warm: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        forgetDecodedBlobs();
        cold.push((await timed(query)).ms);
        warm.push((await timed(query)).ms);
      }
      forgetDecodedBlobs();
      const perRequest = await storeCalls.count(() => timed(query));
      rows.push(
        `| ${label} | \`${query || '-'}\` | ${veryFirst.total.toLocaleString('en-US')} | ${first ? `${Math.round(veryFirst.ms)} (process cold)` : Math.round(veryFirst.ms)} | ${Math.round(median(cold))} | ${Math.round(Math.max(...cold))} | ${Math.round(median(warm))} | ${perRequest} |`,
      );
      first = false;
    }
    await server.close();
    return [
      `## People at ${N.toLocaleString('en-US')} people`,
      '',
      `${N.toLocaleString('en-US')} people (person records and the People index with its bundle, written straight into a local Blobs server) in ${(seedMs / 1000).toFixed(0)} s. GET /api/admin/people with an editor's session on loopback; cold = nothing decoded kept (a fresh function instance), ${RUNS} samples each, median and worst; warm = the same instance again; store calls of one cold request, the session's user included:`,
      '',
      '| Query | Parameters | Total | First request (ms) | Cold median (ms) | Cold worst (ms) | Warm median (ms) | Store calls |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n');
  } finally {
    await store.stop();
    console.log = log;
    console.info = info;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchPeople());
