/**
 * Staff lists at scale (docs/decisions/103-scale-bench.md). Prints a markdown section for docs/benchmarks.md.
 *   npm exec -- node scripts/bench/scale.mts     (BENCH_SCALE_SIZES=1000,10000,100000 by default; BENCH_SCALE_RUNS, 5)
 *
 * For each size: a fresh local Blobs server, filled by `npm run seed -- --scale N --only inbox`'s own code (the
 * repositories' bulk path, straight into the store's directory), then each operation of OPERATIONS through the
 * real function handlers on loopback, as the dev server serves them (the same modules, the same local Blobs
 * server over HTTP): store calls per request (counted), local wall time (median of BENCH_SCALE_RUNS after a
 * warm-up), the process's peak RSS while it ran, and the same request with every store call delayed 30 ms and
 * 100 ms (what Netlify's network adds: measured, not multiplied, so calls made in parallel count once).
 *
 * The operations are a list: a new one (an Activity page, the integrity check, an attendee list, a rush) is one
 * entry, with the seed part it needs.
 */
import { cpus } from 'node:os';
import type { KV, StoreName } from '../../src/lib/server/store.ts';
import type { ScalePart } from '../lib/scale-seed.mts';
import { benchBlobsStore, serveFunctions } from './serve.mts';

export interface ScaleContext {
  /** The function server's origin. */
  url: string;
  /** An editor's session cookie (admin-only operations sign in themselves). */
  cookie: string;
  /** The records of each kind in the store. */
  n: number;
}

export interface ScaleOperation {
  name: string;
  /** The seed parts it needs (scripts/lib/scale-seed.mts). */
  parts: ScalePart[];
  /** One request (or one whole job), checked: throws when the answer is wrong. */
  run(ctx: ScaleContext): Promise<void>;
  /** Timed runs after the warm-up (default BENCH_SCALE_RUNS); a long job runs once, no warm-up. */
  runs?: number;
  /** Not repeated with store latency injected (a job whose calls are counted in the hundred thousands). */
  noLatency?: boolean;
}

async function getJson<T>(ctx: ScaleContext, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${ctx.url}${path}`, {
    ...init,
    headers: { cookie: ctx.cookie, origin: ctx.url, 'sec-fetch-site': 'same-origin', ...init.headers },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

interface InboxPage {
  total: number;
  items: Record<string, unknown>[];
}

const inboxPage =
  (path: string, check: (page: InboxPage, ctx: ScaleContext) => boolean): ScaleOperation['run'] =>
  async (ctx) => {
    const page = await getJson<InboxPage>(ctx, path);
    if (!check(page, ctx)) throw new Error(`${path}: unexpected answer (total ${page.total})`);
  };

/** The operations measured, in table order. */
export const OPERATIONS: ScaleOperation[] = [
  ...(['volunteers', 'contacts', 'text-signups', 'email-subscribers'] as const).map(
    (kind): ScaleOperation => ({
      name: `Inbox page 1: ${kind}`,
      parts: ['inbox'],
      run: inboxPage(`/api/admin/${kind}`, (p, ctx) => p.total === ctx.n && p.items.length === 50),
    }),
  ),
  {
    name: 'Inbox page 1,000 of 2,000 (volunteers; page 10 at 1k)',
    parts: ['inbox'],
    run: (ctx) =>
      inboxPage(
        `/api/admin/volunteers?page=${Math.max(1, Math.floor(ctx.n / 100))}`,
        (p) => p.items.length === 50,
      )(ctx),
  },
  {
    name: 'Inbox search `?q=metairie` (volunteers: 1 in 7)',
    parts: ['inbox'],
    run: inboxPage('/api/admin/volunteers?q=metairie', (p, ctx) => p.total === Math.ceil((ctx.n - 1) / 7)),
  },
  {
    name: 'Inbox filter `?lang=es` (text sign-ups: 1 in 3)',
    parts: ['inbox'],
    run: inboxPage('/api/admin/text-signups?lang=es', (p, ctx) => p.total === Math.ceil((ctx.n - 1) / 3)),
  },
  {
    name: 'CSV export of every volunteer (POST, then the background job to its file)',
    parts: ['inbox'],
    runs: 1,
    noLatency: true,
    run: async (ctx) => {
      const { runExport, setExportKicker } = await import('../../src/lib/server/exports/exports.ts');
      const kicked: { run?: { id: string; token: string } } = {};
      setExportKicker((run) => {
        kicked.run = run;
        return Promise.resolve();
      });
      try {
        const { job } = await getJson<{ job: { id: string; status: string; rows: number } }>(
          ctx,
          '/api/admin/exports',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ source: 'inbox', params: { kind: 'volunteers' } }),
          },
        );
        const done =
          job.status === 'done' ? job : kicked.run ? await runExport(kicked.run.id, kicked.run.token) : null;
        if (done?.status !== 'done' || done.rows !== ctx.n)
          throw new Error(`export: ${JSON.stringify(done)}`);
      } finally {
        setExportKicker(null);
      }
    },
  },
];

/** A store whose every call waits `ms` first: Netlify's round trip, on loopback. */
class SlowKV implements KV {
  readonly inner: KV;
  readonly ms: number;
  constructor(inner: KV, ms: number) {
    this.inner = inner;
    this.ms = ms;
  }
  private wait() {
    return new Promise((r) => setTimeout(r, this.ms));
  }
  async get<T>(k: string) {
    await this.wait();
    return this.inner.get<T>(k);
  }
  async create(k: string, v: unknown) {
    await this.wait();
    return this.inner.create(k, v);
  }
  async replace(k: string, v: unknown, e: string) {
    await this.wait();
    return this.inner.replace(k, v, e);
  }
  async put(k: string, v: unknown) {
    await this.wait();
    return this.inner.put(k, v);
  }
  async putBytes(k: string, d: ArrayBuffer, m: Record<string, string>) {
    await this.wait();
    return this.inner.putBytes(k, d, m);
  }
  async getBytes(k: string) {
    await this.wait();
    return this.inner.getBytes(k);
  }
  async delete(k: string) {
    await this.wait();
    return this.inner.delete(k);
  }
  async *keys(prefix?: string) {
    for await (const page of this.inner.keys(prefix)) {
      await this.wait();
      yield page;
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
const ms = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);

interface Row {
  op: string;
  n: number;
  calls: number;
  localMs: number;
  peakRss: number;
  at30: number | null;
  at100: number | null;
}

export async function benchScale(): Promise<string> {
  const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
  const runs = Number(process.env.BENCH_SCALE_RUNS ?? 5);
  const rows: Row[] = [];
  const seeds: string[] = [];
  for (const n of sizes) {
    const store = await benchBlobsStore();
    try {
      const { BlobsKV, setStoreFactory } = await import('../../src/lib/server/store.ts');
      const { DirectoryKV, INBOX_STORES } = await import('../lib/directory-kv.mts');
      const { seedScale } = await import('../lib/scale-seed.mts');
      const { CountingKV, roundTrips } = await import('../../tests/helpers/counting-store.ts');
      const parts = [...new Set(OPERATIONS.flatMap((o) => o.parts))];
      setStoreFactory((name) =>
        INBOX_STORES.has(name) ? new DirectoryKV(store.directory, store.siteID, name) : new BlobsKV(name),
      );
      const seed = await seedScale(n, { parts, log: () => {} });
      seeds.push(`${n.toLocaleString('en-US')}: ${(seed.totalMs / 1000).toFixed(1)} s`);
      const { createUser } = await import('../../src/lib/server/auth/users.ts');
      const { createSessionCookie } = await import('../../src/lib/server/auth/session.ts');
      setStoreFactory(null);
      const editor = await createUser({
        username: `bench-editor-${n}`,
        email: `bench-editor-${n}@example.org`,
        password: 'bench-editor-password',
        role: 'editor',
      });
      const cookie = (await createSessionCookie(editor)).split(';')[0]!;
      const server = await serveFunctions([
        await import('../../netlify/functions/admin-inbox.mts'),
        await import('../../netlify/functions/admin-exports.mts'),
      ]);
      const ctx: ScaleContext = { url: server.url, cookie, n };
      // Every store counted; `at` ms added before each call (0: none).
      const counted = new Map<StoreName, InstanceType<typeof CountingKV>>();
      const countWith = (at: number) =>
        setStoreFactory((name) => {
          const kv = new CountingKV(at ? new SlowKV(new BlobsKV(name), at) : new BlobsKV(name));
          counted.set(name, kv);
          return kv;
        });
      const calls = () => [...counted.values()].reduce((sum, kv) => sum + roundTrips(kv.counts), 0);
      const reset = () => counted.forEach((kv) => kv.reset());
      const slow = async (op: ScaleOperation, at: number) => {
        countWith(at);
        const t = performance.now();
        await op.run(ctx);
        return performance.now() - t;
      };
      try {
        for (const op of OPERATIONS) {
          countWith(0);
          const times = op.runs ?? runs;
          if (times > 1) await op.run(ctx); // warm-up
          const wall: number[] = [];
          let peak = 0;
          let used = 0;
          for (let i = 0; i < times; i++) {
            reset();
            const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
            const t = performance.now();
            await op.run(ctx);
            wall.push(performance.now() - t);
            clearInterval(sampler);
            peak = Math.max(peak, process.memoryUsage().rss);
            used = calls();
          }
          const row: Row = {
            op: op.name,
            n,
            calls: used,
            localMs: median(wall),
            peakRss: peak,
            at30: null,
            at100: null,
          };
          if (!op.noLatency) {
            row.at30 = await slow(op, 30);
            row.at100 = await slow(op, 100);
          }
          rows.push(row);
          console.error(`scale ${n}: ${op.name}: ${used} calls, ${ms(row.localMs)}`);
        }
      } finally {
        setStoreFactory(null);
        await server.close();
      }
    } finally {
      await store.stop();
    }
  }
  const target = (r: Row) => (r.calls <= 60 && r.localMs <= 1000 ? '' : ' ⚠');
  return [
    '## Staff lists at scale',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'} by scripts/bench/scale.mts`,
    '(docs/decisions/103-scale-bench.md): for each size, a fresh local Blobs server filled by',
    '`npm run seed -- --scale N --only inbox` (N records of each Inbox kind; seeded in ' +
      seeds.join(', ') +
      '),',
    `then each operation through the real function handlers on loopback as the dev server serves them. Store calls`,
    `per request (the session included); local wall time, median of ${runs} after a warm-up (a CSV export: one run,`,
    "from the POST to its last file stored, 32 record reads at a time); the process's peak RSS while it ran; and the",
    "same request with every store call delayed 30 ms and 100 ms (what Netlify's round trips add; measured, so calls",
    'made in parallel count once). Targets at 100,000: a list, search or page at most 60 calls and 1 s locally (⚠ marks',
    'a miss). An export is not a page: it runs in the background function (15 minutes).',
    '',
    '| Operation | Records of each kind | Store calls | Local wall time | Peak RSS | At 30 ms a call | At 100 ms a call |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.op} | ${r.n.toLocaleString('en-US')} | ${r.calls.toLocaleString('en-US')}${r.op.startsWith('CSV') ? '' : target(r)} | ` +
        `${ms(r.localMs)} | ${mib(r.peakRss)} | ${r.at30 === null ? `~${ms(Math.ceil(r.calls / 32) * 30 + r.localMs)} (est.)` : ms(r.at30)} | ` +
        `${r.at100 === null ? `~${ms(Math.ceil(r.calls / 32) * 100 + r.localMs)} (est.)` : ms(r.at100)} |`,
    ),
    '',
    'For an export the 30 ms and 100 ms figures are estimates: its record reads run 32 at a time, so',
    'calls / 32 round trips on top of the local time.',
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchScale());
