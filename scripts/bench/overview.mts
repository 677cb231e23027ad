/**
 * The Overview tab at 100,000 supporters (docs/decisions/180-overview.md). Prints a markdown section for
 * docs/benchmarks.md.
 *   npm exec -- node scripts/bench/overview.mts     (BENCH_DURATION=seconds, default 10)
 *
 * A real local Blobs server holding a year of daily rollups that count 100,000 sign-ups and their opt-ins and
 * opt-outs (what the fold leaves after a year), plus a minute's worth of ops not yet folded. GET
 * /api/admin/overview for 7 days, 30 days and since launch: the first request after the module loads (cold), then
 * autocannon with a viewer's session (warm), and the store calls one request makes (a counting wrapper over the
 * same store). Then the weight of the tab's code (OverviewTab and its chart, minified and gzipped, React and the
 * shared dashboard modules left out).
 */
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { benchBlobs, serveFunctions, storeCallCounter } from './serve.mts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const SUPPORTERS = 100_000;
const DAYS = 365;
const PENDING = 200;

export async function benchOverview(): Promise<string> {
  const stopBlobs = await benchBlobs();
  try {
    const { ACTIVITY_KINDS } = await import('../../src/lib/schemas/overview.ts');
    const { campaignToday } = await import('../../src/lib/campaign-time.ts');
    const { dayKey, opName, store } = await import('../../src/lib/server/activity/counts.ts');
    const { mapLimit } = await import('../../src/lib/server/storage/map-limit.ts');
    const { setStoreFactory } = await import('../../src/lib/server/storage/stores.ts');
    const { createUser } = await import('../../src/lib/server/auth/users.ts');
    const overviewFn = await import('../../netlify/functions/admin-overview.mts');
    const login = await import('../../netlify/functions/auth-login.mts');

    // A year of rollups: 100,000 sign-ups spread over the days, with sources and list movements.
    const today = campaignToday();
    const dayAt = (i: number) =>
      new Date(Date.parse(`${today}T12:00:00Z`) - i * 86_400_000).toISOString().slice(0, 10);
    const perDay = Math.ceil(SUPPORTERS / DAYS);
    const seeded = Date.now();
    await mapLimit(
      Array.from({ length: DAYS }, (_, i) => dayAt(i)),
      16,
      async (day) => {
        const counts = Object.fromEntries(ACTIVITY_KINDS.map((k, j) => [k, Math.max(0, perDay - j * 7)]));
        const sources = {
          'signup.text': { 'page:volunteer': Math.floor(perDay / 2), 'page:home': Math.ceil(perDay / 2) },
          'signup.volunteer': { 'page:volunteer': perDay },
        };
        await store().put(dayKey(day), { day, counts, sources, applied: [] });
      },
    );
    await mapLimit(
      Array.from({ length: PENDING }, (_, i) => i),
      16,
      (i) =>
        store().create(
          opName({ kind: 'signup.text', id: `pending-${i}`, at: new Date(), source: 'page:home' }),
          {},
        ),
    );
    const seedMs = Date.now() - seeded;

    await createUser({
      username: 'bench-viewer',
      email: 'bench-viewer@example.org',
      password: 'bench-viewer-password-1',
      role: 'viewer',
      firstName: 'Bench',
      lastName: 'Viewer',
    });
    const server = await serveFunctions([overviewFn, login]);
    const signIn = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ username: 'bench-viewer', password: 'bench-viewer-password-1' }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;

    // Store calls per request: a counting wrapper over the same stores (a listing counts once per page).
    setStoreFactory(null);
    const storeCalls = storeCallCounter();

    const rows: string[] = [];
    for (const period of ['7', '30', 'launch'] as const) {
      const url = `${server.url}/api/admin/overview?period=${period}`;
      const t0 = performance.now();
      const first = await fetch(url, { headers: { cookie } });
      const body = (await first.json()) as { days: unknown[]; totals: Record<string, number> };
      const coldMs = performance.now() - t0;
      // Counted once, in process (the same handler, the same store).
      const perRequest = await storeCalls.count(() =>
        fetch(url, { headers: { cookie } }).then((r) => r.arrayBuffer()),
      );
      const warm = await autocannon({ url, connections: 4, duration: DURATION, headers: { cookie } });
      rows.push(
        `| ${period === 'launch' ? 'since launch' : `${period} days`} | ${first.status} | ${body.days.length} | ${Math.round(coldMs)} | ${warm.latency.p50} | ${warm.latency.p99} | ${Math.round(warm.requests.average)} | ${perRequest} |`,
      );
    }
    await server.close();

    // The tab's own code, as the dashboard bundle carries it: its files bundled, everything else (React, SWR, the
    // shared dashboard modules) left out.
    const own = (files: string[]) =>
      build({
        entryPoints: [files[0]!],
        bundle: true,
        minify: true,
        write: false,
        format: 'esm',
        jsx: 'automatic',
        logLevel: 'silent',
        plugins: [
          {
            name: 'only-own',
            setup(b) {
              b.onResolve({ filter: /.*/ }, (args) => {
                if (args.kind === 'entry-point') return undefined;
                const path = args.path.startsWith('.')
                  ? new URL(args.path, `file://${args.resolveDir}/`).pathname
                  : '';
                return files.some((f) => path.endsWith(f.replace(/^src\//, '')))
                  ? undefined
                  : { path: args.path, external: true };
              });
            },
          },
        ],
      }).then((r) => r.outputFiles[0]!.contents);
    const code = await own([
      'src/admin/tabs/OverviewTab.tsx',
      'src/admin/charts/BarChart.tsx',
      'src/admin/api/get-overview.ts',
    ]);
    const chartCode = await own(['src/admin/charts/BarChart.tsx']);

    return [
      '## Overview tab (GET /api/admin/overview) at 100,000 supporters',
      '',
      `${SUPPORTERS.toLocaleString('en-US')} sign-ups over ${DAYS} daily rollups, ${PENDING} ops waiting for the fold; seeded in ${seedMs} ms. GET /api/admin/overview with a viewer's session, ${DURATION} s of autocannon (4 connections) per period:`,
      '',
      '| Period | Status | Days | First request (ms) | p50 (ms) | p99 (ms) | Requests/s | Store calls per request |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      `The tab's code: OverviewTab and its chart ${(code.length / 1024).toFixed(1)} KB minified, ${(gzipSync(code).length / 1024).toFixed(1)} KB gzipped (React, SWR and the shared dashboard modules not counted); the chart alone ${(chartCode.length / 1024).toFixed(1)} KB, ${(gzipSync(chartCode).length / 1024).toFixed(1)} KB gzipped. No charting library.`,
    ].join('\n');
  } finally {
    await stopBlobs();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchOverview());
