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
  /** A fresh function instance (nothing decoded kept). */
  coldCalls: number;
  coldMs: number;
  /** A warm instance: the median of the runs after the cold one. */
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
      const { forgetDecodedBlobs } = await import('../../src/lib/server/summaries/index-store.ts');
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
          let peak = 0;
          const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
          const timed = async () => {
            reset();
            const t = performance.now();
            await op.run(ctx);
            return { ms: performance.now() - t, calls: calls() };
          };
          // Cold: as a fresh function instance makes the request (the first after a deploy, or on a new instance).
          forgetDecodedBlobs();
          const cold = await timed();
          const warm: { ms: number; calls: number }[] = [];
          for (let i = 1; i < (op.runs ?? runs); i++) warm.push(await timed());
          clearInterval(sampler);
          peak = Math.max(peak, process.memoryUsage().rss);
          const row: Row = {
            op: op.name,
            n,
            coldCalls: cold.calls,
            coldMs: cold.ms,
            calls: warm.length ? warm.at(-1)!.calls : cold.calls,
            localMs: warm.length ? median(warm.map((w) => w.ms)) : cold.ms,
            peakRss: peak,
            at30: null,
            at100: null,
          };
          if (!op.noLatency) {
            forgetDecodedBlobs();
            row.at30 = await slow(op, 30);
            forgetDecodedBlobs();
            row.at100 = await slow(op, 100);
          }
          rows.push(row);
          console.error(
            `scale ${n}: ${op.name}: ${row.coldCalls} calls, cold ${ms(row.coldMs)}, warm ${ms(row.localMs)}`,
          );
        }
      } finally {
        setStoreFactory(null);
        await server.close();
      }
    } finally {
      await store.stop();
    }
  }
  const target = (r: Row) => (r.coldCalls <= 60 && r.coldMs <= 1000 ? '' : ' ⚠');
  const est = (r: Row, at: number) => `~${ms(Math.ceil(r.coldCalls / 32) * at + r.coldMs)} (est.)`;
  return [
    '## Staff lists at scale',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'} by scripts/bench/scale.mts`,
    '(docs/decisions/103-scale-bench.md): for each size, a fresh local Blobs server filled by',
    `\`npm run seed -- --scale N --only inbox\` (N records of each Inbox kind; seeded in ${seeds.join(', ')}), then each`,
    'operation through the real function handlers on loopback, as the dev server serves them. Cold: as a fresh',
    'function instance makes the request (nothing decoded kept); warm: the median of the next',
    `${runs - 1} (an instance keeps the chunks it decoded: docs/decisions/100-summary-indexes.md). Store calls per request`,
    "(the session included); the process's peak RSS over the runs (it also holds the Blobs server); and the cold request",
    "again with every store call delayed 30 ms and 100 ms (what Netlify's round trips add; measured, so calls made in",
    'parallel count once). Targets at 100,000: a list, search or page at most 60 calls and 1 s locally, cold (⚠ marks a',
    'miss). A CSV export is not a page: one run, from the POST to its last file stored, in the background function (15',
    'minutes); its 30 ms and 100 ms figures are estimates (its record reads run 32 at a time: calls / 32 round trips',
    'added to the local time).',
    '',
    '| Operation | Records of each kind | Store calls (cold / warm) | Local wall time (cold / warm) | Peak RSS | At 30 ms a call | At 100 ms a call |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const exported = r.at30 === null;
      const calls = exported
        ? r.coldCalls.toLocaleString('en-US')
        : `${r.coldCalls} / ${r.calls}${target(r)}`;
      const time = exported ? ms(r.coldMs) : `${ms(r.coldMs)} / ${ms(r.localMs)}`;
      return (
        `| ${r.op} | ${r.n.toLocaleString('en-US')} | ${calls} | ${time} | ${mib(r.peakRss)} | ` +
        `${r.at30 === null ? est(r, 30) : ms(r.at30)} | ${r.at100 === null ? est(r, 100) : ms(r.at100)} |`
      );
    }),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchScale());
