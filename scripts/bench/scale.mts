/**
 * Staff lists at scale (docs/decisions/168-benchmarks-and-scale.md). Prints a markdown section for docs/benchmarks.md.
 *   npm exec -- node scripts/bench/scale.mts     (BENCH_SCALE_SIZES=1000,10000,100000 by default; BENCH_SCALE_RUNS, 5)
 *   BENCH_SCALE_OPS=search,lang: only the operations whose names hold one of these (case-insensitive), and only
 *   the seed parts they need (a quick look at one operation at 100,000).
 *
 * For each size: a fresh local Blobs server, filled by `npm run seed -- --scale N`'s own code (the repositories,
 * straight into the store's directory), then each operation of OPERATIONS through the real function handlers on
 * loopback, as the dev server serves them (the same modules, the same local Blobs server over HTTP): store calls
 * per request (counted), local wall time (median of BENCH_SCALE_RUNS after a warm-up), the process's peak RSS
 * while it ran, and the same request with every store call delayed 30 ms and 100 ms (what Netlify's network
 * adds: measured, not multiplied, so calls made in parallel count once).
 *
 * The operations are a list: a new one is one entry, with the seed part it needs and, if each run needs a fresh
 * state (a rush needs an event ten seats short of full), a `prepare` that is neither counted nor timed.
 */
import { cpus } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AuditVerifyStatus } from '../../src/lib/schemas/audit.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import type { ScalePart } from '../lib/scale-seed.mts';
import { benchBlobsStore, serveFunctions } from './serve.mts';

export interface ScaleContext {
  /** The function server's origin. */
  url: string;
  /** An admin's session cookie (Activity and the users list are admin only). */
  cookie: string;
  /** The records of each kind in the store (2n audit entries, n/10 RSVPs, n/20 articles). */
  n: number;
  /** The seeded event (n/10 RSVPs) and the first seeded article. */
  eventId: number;
  articleId: number;
}

export interface ScaleOperation {
  name: string;
  /** The seed parts it needs (scripts/lib/scale-seed.mts). */
  parts: ScalePart[];
  /** Before each run, not counted or timed: the state the run needs (kept by the entry). */
  prepare?(ctx: ScaleContext): Promise<void>;
  /** One request (or one whole job), checked: throws when the answer is wrong; may return a note for the table. */
  run(ctx: ScaleContext): Promise<string | void>;
  /** Timed runs after the warm-up (default BENCH_SCALE_RUNS); a long job runs once, no warm-up. */
  runs?: number;
  /** Not repeated with store latency injected: its reads, this many at a time, give the estimate instead. */
  parallelReads?: number;
}

/** The IP header the bench's function server takes context.ip from (a rush is many people). */
const IP_HEADER = 'x-bench-client-ip';

async function request(ctx: ScaleContext, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${ctx.url}${path}`, {
    ...init,
    headers: { cookie: ctx.cookie, origin: ctx.url, 'sec-fetch-site': 'same-origin', ...init.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return res;
}

async function getJson<T>(ctx: ScaleContext, path: string, init: RequestInit = {}): Promise<T> {
  return (await (await request(ctx, path, init)).json()) as T;
}

interface ListPage {
  total: number;
  items?: unknown[];
  entries?: unknown[];
}

/** One page of a list, checked: its total and the rows it shows. */
const listPage =
  (path: (ctx: ScaleContext) => string, check: (page: ListPage, ctx: ScaleContext) => boolean) =>
  async (ctx: ScaleContext): Promise<string> => {
    const page = await getJson<ListPage>(ctx, path(ctx));
    if (!check(page, ctx)) throw new Error(`${path(ctx)}: unexpected answer (total ${page.total})`);
    return `total ${page.total.toLocaleString('en-US')}`;
  };

const shows = (page: ListPage, rows: number) => (page.items ?? page.entries ?? []).length === rows;

/** A CSV answered by the request itself; its data rows (the header and a byte-order mark aside). */
const csvRows = (text: string) => text.trim().split('\r\n').length - 1;

/** Activity: 2n entries over the last 60 days, six kinds in turn, three staff in turn (scripts/lib/scale-seed.mts). */
const activity = (query: (ctx: ScaleContext) => string) => (ctx: ScaleContext) =>
  `/api/admin/activity?pageSize=50${query(ctx)}`;
/** The middle page of `rows` rows, 50 a page. */
const middle = (rows: number) => Math.max(1, Math.floor(rows / 50 / 2));

const statusTally = (statuses: number[]) =>
  [...new Set(statuses)]
    .sort()
    .map((s) => `${statuses.filter((x) => x === s).length} x ${s}`)
    .join(', ');
/** A rush's answers: a 409 or a 5xx is a target missed (⚠). */
const rushNote = (statuses: number[], extra = '') =>
  `${statusTally(statuses)}${extra}${statuses.some((s) => s === 409 || s >= 500) ? ' ⚠' : ''}`;

/** Each run of a rush: its own people and gifts (a fresh rate-limit window for each address). */
let rushRun = 0;

/** 200 people RSVP at once for an event's last 10 seats, each from their own address, through the handler. */
function rsvpRush(): ScaleOperation {
  let eventId = 0;
  return {
    name: '200 RSVPs at once for the last 10 seats (calls: all 200 requests)',
    parts: [],
    async prepare() {
      const { EventInputSchema } = await import('../../src/lib/schemas/event.ts');
      const { RsvpInputSchema } = await import('../../src/lib/schemas/rsvp.ts');
      const { createEvent, campaignToday } = await import('../../src/lib/server/content/events.ts');
      const { rsvp } = await import('../../src/lib/server/events/rsvp.ts');
      const event = await createEvent(
        EventInputSchema.parse({
          title: 'Rush rally',
          location: 'Congo Square',
          eventDate: campaignToday(new Date(Date.now() + 7 * 86_400_000)),
          startTime: '10:00',
          eventType: 'rally',
          isPublic: true,
          registrationRequired: true,
          maxAttendees: 100,
        }),
      );
      eventId = event.id;
      const meta = { ip: '203.0.113.7', userAgent: 'bench' };
      for (let i = 0; i < 90; i += 30)
        await Promise.all(
          Array.from({ length: 30 }, (_, j) =>
            rsvp(
              eventId,
              RsvpInputSchema.parse({
                name: `Early ${i + j}`,
                email: `early${i + j}.${eventId}@example.org`,
                captchaResponse: 'bench',
              }),
              meta,
            ),
          ),
        );
      rushRun++;
    },
    async run(ctx) {
      const { TURNSTILE_TEST_TOKEN } = await import('../../src/lib/server/env.ts');
      const answers = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const res = await fetch(`${ctx.url}/api/events/${eventId}/rsvp`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin: ctx.url,
              [IP_HEADER]: `10.${rushRun % 250}.${Math.floor(i / 250)}.${(i % 250) + 1}`,
            },
            body: JSON.stringify({
              name: `Rush ${i}`,
              email: `rush${i}.${eventId}@example.org`,
              captchaResponse: TURNSTILE_TEST_TOKEN,
            }),
          });
          const body = (await res.json().catch(() => ({}))) as { status?: string };
          return { status: res.status, going: body.status === 'going' };
        }),
      );
      const going = answers.filter((a) => a.going).length;
      return rushNote(
        answers.map((a) => a.status),
        `; ${going} going${going > 10 ? ' (over-booked)' : ''}`,
      );
    },
  };
}

/** 100 ActBlue deliveries of distinct gifts for one day at once, through the webhook handler. */
const actBlueRush: ScaleOperation = {
  name: '100 ActBlue deliveries at once for one day (calls: all 100 requests)',
  parts: [],
  prepare() {
    rushRun++;
    return Promise.resolve();
  },
  async run(ctx) {
    const auth = `Basic ${Buffer.from('bench:bench-password').toString('base64')}`;
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const n = rushRun * 1000 + i;
        const res = await fetch(`${ctx.url}/api/donations/actblue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({
            donor: { email: `donor${n}@example.org` },
            contribution: {
              orderNumber: `AB8${String(n).padStart(8, '0')}`,
              createdAt: '2026-11-20T15:00:00-06:00',
            },
            lineitems: [{ amount: '25.00', paidAt: '2026-11-20T15:00:01-06:00', lineitemId: 90_000 + n }],
          }),
        });
        await res.body?.cancel();
        return res.status;
      }),
    );
    return rushNote(statuses);
  },
};

/** The incremental check: one request of the Activity tab's "Check integrity" with 50 new entries waiting. */
const integrityCheck: ScaleOperation = {
  name: 'Integrity check, one request (50 new entries waiting)',
  parts: ['audit'],
  async prepare() {
    const { appendAudit } = await import('../../src/lib/server/audit/audit.ts');
    const { checkStep, BULK_STEP } = await import('../../src/lib/server/audit/checkpoint.ts');
    for (let step = await checkStep(BULK_STEP); step.pending > 0; step = await checkStep(BULK_STEP))
      if (!step.ok) throw new Error(`the audit trail does not verify: ${JSON.stringify(step)}`);
    for (let i = 0; i < 50; i++)
      await appendAudit({
        kind: 'article.update',
        actor: { id: 2, username: 'editor' },
        target: { type: 'article', id: 1, label: `Waiting ${i}` },
        ip: '198.51.100.9',
      });
  },
  async run(ctx) {
    const step = await getJson<{ ok: boolean; entries: number; pending: number }>(
      ctx,
      '/api/admin/activity/verify',
    );
    if (!step.ok) throw new Error(`verify: ${JSON.stringify(step)}`);
    return `${step.entries} verified, ${step.pending} still waiting`;
  },
};

/** The operations measured, in table order. */
/**
 * A staff export through the one mechanism (docs/decisions/156-exports.md): the
 * POST, the background job run here (its kicker captured), then every file downloaded and its rows counted;
 * `atLeast` rows expected (an audit trail also holds the bench's own entries).
 */
function exportOp(
  name: string,
  part: ScalePart,
  params: (ctx: ScaleContext) => Record<string, string>,
  atLeast: (ctx: ScaleContext) => number,
  source: string = part,
): ScaleOperation {
  return {
    name,
    parts: [part],
    runs: 1,
    parallelReads: 32,
    run: async (ctx) => {
      const { runExport, setExportKicker } = await import('../../src/lib/server/exports/exports.ts');
      const kicked: { run?: { id: string; token: string } } = {};
      setExportKicker((run) => {
        kicked.run = run;
        return Promise.resolve();
      });
      try {
        const { job } = await getJson<{ job: { id: string; status: string } }>(ctx, '/api/admin/exports', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ source, params: params(ctx) }),
        });
        if (job.status !== 'done' && kicked.run) await runExport(kicked.run.id, kicked.run.token);
        const { job: done } = await getJson<{
          job: { status: string; rows: number; downloads: { url: string; rows: number }[] };
        }>(ctx, `/api/admin/exports/${job.id}`);
        if (done.status !== 'done' || done.rows < atLeast(ctx))
          throw new Error(`export: ${JSON.stringify(done)}`);
        let rows = 0;
        let bytes = 0;
        for (const d of done.downloads) {
          const res = await request(ctx, d.url, { headers: { 'accept-encoding': 'gzip' } });
          const text = await res.text();
          bytes += Buffer.byteLength(text);
          rows += csvRows(text);
        }
        if (rows !== done.rows) throw new Error(`export: ${rows} rows downloaded of ${done.rows}`);
        return `${rows.toLocaleString('en-US')} rows in ${done.downloads.length} file(s), ${(bytes / 2 ** 20).toFixed(1)} MiB of CSV`;
      } finally {
        setExportKicker(null);
      }
    },
  };
}

export const OPERATIONS: ScaleOperation[] = [
  ...(['volunteers', 'contacts', 'text-signups', 'email-subscribers'] as const).map(
    (kind): ScaleOperation => ({
      name: `Inbox page 1: ${kind}`,
      parts: ['inbox'],
      run: listPage(
        () => `/api/admin/${kind}`,
        (p, ctx) => p.total === ctx.n && shows(p, 50),
      ),
    }),
  ),
  {
    name: 'Inbox page 1,000 of 2,000 (volunteers; page 10 at 1k)',
    parts: ['inbox'],
    run: listPage(
      (ctx) => `/api/admin/volunteers?page=${Math.max(1, Math.floor(ctx.n / 100))}`,
      (p) => shows(p, 50),
    ),
  },
  {
    name: 'Inbox search `?q=metairie` (volunteers: 1 in 7)',
    parts: ['inbox'],
    run: listPage(
      () => '/api/admin/volunteers?q=metairie',
      (p, ctx) => p.total === Math.ceil((ctx.n - 1) / 7),
    ),
  },
  {
    name: 'Inbox filter `?lang=es` (text sign-ups: 1 in 3)',
    parts: ['inbox'],
    run: listPage(
      () => '/api/admin/text-signups?lang=es',
      (p, ctx) => p.total === Math.ceil((ctx.n - 1) / 3),
    ),
  },
  exportOp(
    'CSV export of every volunteer (POST, the background job to its files, then each file downloaded)',
    'inbox',
    () => ({ kind: 'volunteers' }),
    (ctx) => ctx.n,
  ),
  {
    name: 'Activity page 1',
    parts: ['audit'],
    run: listPage(
      activity(() => ''),
      (p, ctx) => p.total >= 2 * ctx.n && shows(p, 50),
    ),
  },
  {
    name: 'Activity, the middle page (page 2,000 at 100k)',
    parts: ['audit'],
    run: listPage(
      activity((ctx) => `&page=${middle(2 * ctx.n)}`),
      (p) => shows(p, 50),
    ),
  },
  {
    name: 'Activity, one kind (1 in 6)',
    parts: ['audit'],
    run: listPage(
      activity(() => '&kind=article.update'),
      (p, ctx) => p.total >= Math.floor((2 * ctx.n) / 6) && shows(p, 50),
    ),
  },
  {
    name: 'Activity, one person and one kind, the middle page',
    parts: ['audit'],
    run: listPage(
      activity((ctx) => `&actor=3&kind=event.update&page=${middle((2 * ctx.n) / 6)}`),
      (p) => p.total > 0,
    ),
  },
  {
    name: 'Activity, one day (30 days ago)',
    parts: ['audit'],
    run: async (ctx) => {
      const { campaignToday } = await import('../../src/lib/server/content/events.ts');
      const day = campaignToday(new Date(Date.now() - 30 * 86_400_000));
      return listPage(
        activity(() => `&from=${day}&to=${day}`),
        (p) => p.total > 0,
      )(ctx);
    },
  },
  integrityCheck,
  exportOp(
    'Activity CSV, every entry (POST, the background job to its files, then each file downloaded)',
    'audit',
    () => ({}),
    (ctx) => 2 * ctx.n,
    'activity',
  ),
  {
    name: 'Full verification of the trail (the background function, one run of its 13 minutes)',
    parts: ['audit'],
    runs: 1,
    parallelReads: 32,
    run: async (ctx) => {
      // The handler itself, not over loopback: it answers when its run ends, after fetch's 5 minutes for the headers
      // at 100,000 (on Netlify, a background function, the platform answers 202 at once).
      const fn = await import('../../netlify/functions/admin-activity-verification.mts');
      const res = await fn.default(
        new Request(`${ctx.url}/api/admin/activity/verification`, {
          method: 'POST',
          headers: { cookie: ctx.cookie, origin: ctx.url, 'sec-fetch-site': 'same-origin' },
        }),
        { ip: '127.0.0.1', params: {} } as never,
      );
      if (!res.ok) throw new Error(`verification: ${res.status} ${await res.text()}`);
      const { full } = (await res.json()) as { full: AuditVerifyStatus };
      if (full.state === 'done' && !full.result?.ok) throw new Error(`verification: ${JSON.stringify(full)}`);
      return `${full.state}: ${(full.checked ?? 0).toLocaleString('en-US')} of ${(full.total ?? 0).toLocaleString('en-US')} entries`;
    },
  },
  {
    name: 'Attendee list page 1 (the event with n/10 RSVPs)',
    parts: ['rsvps'],
    run: listPage(
      (ctx) => `/api/admin/events/${ctx.eventId}/rsvps?pageSize=50`,
      (p, ctx) => p.total >= ctx.n / 10 && shows(p, 50),
    ),
  },
  {
    name: 'Attendee list, the middle page',
    parts: ['rsvps'],
    run: listPage(
      (ctx) => `/api/admin/events/${ctx.eventId}/rsvps?pageSize=50&page=${middle(ctx.n / 10)}`,
      (p) => shows(p, 50),
    ),
  },
  {
    name: 'Attendee list, one person searched',
    parts: ['rsvps'],
    run: listPage(
      (ctx) => `/api/admin/events/${ctx.eventId}/rsvps?q=.r${Math.floor(ctx.n / 20)}%40`,
      (p) => p.total === 1,
    ),
  },
  exportOp(
    'Attendee CSV, every RSVP (POST, answered at once or by the background job, then downloaded)',
    'rsvps',
    (ctx) => ({ event: String(ctx.eventId) }),
    (ctx) => ctx.n / 10,
    'attendees',
  ),
  {
    name: 'Articles (staff list) page 1',
    parts: ['articles'],
    run: listPage(
      () => '/api/admin/news',
      (p, ctx) => p.total === Math.floor(ctx.n / 20),
    ),
  },
  {
    name: 'Revisions of an article, page 1',
    parts: ['articles'],
    run: listPage(
      (ctx) => `/api/admin/news/${ctx.articleId}/revisions`,
      (p) => p.total >= 0,
    ),
  },
  {
    name: 'Users page 1',
    parts: [],
    run: listPage(
      () => '/api/admin/users',
      (p) => p.total >= 1,
    ),
  },
  {
    name: 'Trash page 1',
    parts: [],
    run: listPage(
      () => '/api/admin/trash',
      (p) => p.total >= 0,
    ),
  },
  rsvpRush(),
  actBlueRush,
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
  /** Measured with store latency, or estimated from the reads made `parallelReads` at a time. */
  at30: string;
  at100: string;
  note: string;
  /** One run (an export): no warm figure, no page target. */
  once: boolean;
}

/** A full garbage collection now (V8's gc(), exposed for this call). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** A page misses its target (⚠) above 60 calls or 1 s cold; a rush or a one-run export is judged by its note. */
function tableRow(r: Row): string {
  const page = !r.once && !r.op.includes(' at once ');
  const miss = page && (r.coldCalls > 60 || r.coldMs > 1000) ? ' ⚠' : '';
  const calls = r.once
    ? r.coldCalls.toLocaleString('en-US')
    : `${r.coldCalls.toLocaleString('en-US')} / ${r.calls.toLocaleString('en-US')}`;
  const time = r.once ? ms(r.coldMs) : `${ms(r.coldMs)} / ${ms(r.localMs)}`;
  return (
    `| ${r.op} | ${r.n.toLocaleString('en-US')} | ${calls}${miss} | ${time} | ${mib(r.peakRss)} | ` +
    `${r.at30} | ${r.at100} | ${r.note} |`
  );
}

export async function benchScale(): Promise<string> {
  const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
  const runs = Number(process.env.BENCH_SCALE_RUNS ?? 5);
  const only = (process.env.BENCH_SCALE_OPS ?? '').toLowerCase().split(',').filter(Boolean);
  const operations = only.length
    ? OPERATIONS.filter((o) => only.some((word) => o.name.toLowerCase().includes(word)))
    : OPERATIONS;
  const rows: Row[] = [];
  const seeds: string[] = [];
  // The local adapters log every email they store (an RSVP's confirmation): kept quiet; progress goes to stderr.
  const quiet = { log: console.log, info: console.info };
  console.log = () => {};
  console.info = () => {};
  const { resetEnv } = await import('../../src/lib/server/env.ts');
  process.env.ACTBLUE_WEBHOOK_USERNAME = 'bench';
  process.env.ACTBLUE_WEBHOOK_PASSWORD = 'bench-password';
  resetEnv();
  try {
    for (const n of sizes) {
      const store = await benchBlobsStore();
      try {
        const { BlobsKV } = await import('../../src/lib/server/storage/blobs-kv.ts');
        const { setStoreFactory } = await import('../../src/lib/server/storage/stores.ts');
        const { DirectoryKV } = await import('../lib/directory-kv.mts');
        const { seedScale } = await import('../lib/scale-seed.mts');
        const { CountingKV, roundTrips } = await import('../../tests/helpers/counting-store.ts');
        const { forgetDecodedBlobs } =
          await import('../../src/lib/server/storage/summary-index/blob-cache.ts');
        const parts = [...new Set(operations.flatMap((o) => o.parts))];
        // Every part straight into the store's directory (nothing else writes it meanwhile): the seed's records
        // and indexes, made by the repositories, in minutes at 100,000.
        setStoreFactory((name) => new DirectoryKV(store.directory, store.siteID, name));
        const seed = await seedScale(n, { parts, log: () => {} });
        seeds.push(`${n.toLocaleString('en-US')}: ${(seed.totalMs / 1000).toFixed(1)} s`);
        console.error(`scale ${n}: seeded in ${(seed.totalMs / 1000).toFixed(1)} s`);
        const { createUser } = await import('../../src/lib/server/auth/users.ts');
        const { createSessionCookie } = await import('../../src/lib/server/auth/session.ts');
        setStoreFactory(null);
        const admin = await createUser({
          username: `bench-admin-${n}`,
          email: `bench-admin-${n}@example.org`,
          password: 'bench-admin-password',
          role: 'admin',
        });
        const cookie = (await createSessionCookie(admin)).split(';')[0]!;
        const server = await serveFunctions(
          await Promise.all([
            import('../../netlify/functions/admin-inbox.mts'),
            import('../../netlify/functions/admin-exports.mts'),
            import('../../netlify/functions/admin-activity.mts'),
            import('../../netlify/functions/admin-event-rsvps.mts'),
            import('../../netlify/functions/admin-news.mts'),
            import('../../netlify/functions/admin-revisions.mts'),
            import('../../netlify/functions/admin-users.mts'),
            import('../../netlify/functions/admin-trash.mts'),
            import('../../netlify/functions/event-rsvp.mts'),
            import('../../netlify/functions/donations-actblue.mts'),
          ]),
          { clientIpHeader: IP_HEADER },
        );
        const ctx: ScaleContext = {
          url: server.url,
          cookie,
          n,
          eventId: seed.ids.event ?? 0,
          articleId: seed.ids.article ?? 0,
        };
        // Every store counted; `at` ms added before each call (0: none).
        const counted = new Map<StoreName, InstanceType<typeof CountingKV>>();
        const countWith = (at: number) =>
          setStoreFactory((name) => {
            const kv = new CountingKV(at ? new SlowKV(new BlobsKV(name), at) : new BlobsKV(name));
            counted.set(name, kv);
            return kv;
          });
        const calls = () => [...counted.values()].reduce((sum, kv) => sum + roundTrips(kv.counts), 0);
        const timed = async (op: ScaleOperation, at = 0) => {
          countWith(0);
          await op.prepare?.(ctx);
          if (at) countWith(at);
          counted.forEach((kv) => kv.reset());
          const t = performance.now();
          const note = await op.run(ctx);
          return { ms: performance.now() - t, calls: calls(), note: note ?? '' };
        };
        try {
          for (const op of operations) {
            let peak = 0;
            const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
            let row: Row;
            // An operation that fails is a row saying so; the others still run.
            try {
              // Cold: as a fresh function instance makes the request (the first after a deploy, or on a new instance):
              // nothing decoded kept, and none of the seed's garbage (gigabytes at 100,000) left for a collection
              // to stop the request for, which a fresh instance would not have either. The code is as cold as it was.
              forgetDecodedBlobs();
              collectGarbage();
              const cold = await timed(op);
              const warm: { ms: number; calls: number; note: string }[] = [];
              for (let i = 1; i < (op.runs ?? runs); i++) warm.push(await timed(op));
              clearInterval(sampler);
              peak = Math.max(peak, process.memoryUsage().rss);
              // Estimated: the reads in round trips of `parallelReads`, added to the local time.
              const est = (at: number) =>
                `~${ms(Math.ceil(cold.calls / op.parallelReads!) * at + cold.ms)} (est.)`;
              // A run whose note is marked (a rush that answered a 409 or a 5xx) is named beside the first.
              const marked: string[] = [];
              const slow = async (at: number) => {
                forgetDecodedBlobs();
                const r = await timed(op, at);
                if (r.note.includes('⚠')) marked.push(`at ${at} ms: ${r.note}`);
                return ms(r.ms);
              };
              const at30 = op.parallelReads ? est(30) : await slow(30);
              const at100 = op.parallelReads ? est(100) : await slow(100);
              marked.unshift(...warm.filter((w) => w.note.includes('⚠')).map((w) => `a warm run: ${w.note}`));
              row = {
                op: op.name,
                n,
                coldCalls: cold.calls,
                coldMs: cold.ms,
                calls: warm.length ? warm.at(-1)!.calls : cold.calls,
                localMs: warm.length ? median(warm.map((w) => w.ms)) : cold.ms,
                peakRss: peak,
                at30,
                at100,
                note: [cold.note, ...marked].join('; '),
                once: !warm.length,
              };
            } catch (err) {
              const message = (err as Error).message.split('\n')[0]!.slice(0, 200);
              row = {
                op: op.name,
                n,
                coldCalls: 0,
                coldMs: 0,
                calls: 0,
                localMs: 0,
                peakRss: peak,
                at30: '-',
                at100: '-',
                note: `**failed**: ${message}`,
                once: true,
              };
            } finally {
              clearInterval(sampler);
            }
            rows.push(row);
            // The table's row as soon as it is measured: a run stopped part way still has its rows.
            console.error(`scale ${n}: ${tableRow(row)}`);
          }
        } finally {
          setStoreFactory(null);
          await server.close();
        }
      } finally {
        await store.stop();
      }
    }
  } finally {
    Object.assign(console, quiet);
  }
  return [
    '## Staff lists at scale',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'} by scripts/bench/scale.mts`,
    '(docs/decisions/168-benchmarks-and-scale.md): for each size, a fresh local Blobs server filled by `npm run seed -- --scale N`',
    `(N records of each Inbox kind, 2N audit entries, an event with N/10 RSVPs, N/20 articles; seeded in ${seeds.join(', ')}),`,
    'then each operation through the real function handlers on loopback, as the dev server serves them, by an admin.',
    'Cold: as a fresh function instance makes the request (nothing decoded kept, the seed’s garbage collected first); warm: the median of the next',
    `${runs - 1} (an instance keeps the chunks it decoded: docs/decisions/155-inbox-and-staff-lists.md). Store calls per request`,
    "(the session included); the process's peak RSS over the runs (it also holds the Blobs server); and the cold request",
    "again with every store call delayed 30 ms and 100 ms (what Netlify's round trips add; measured, so calls made in",
    'parallel count once). Targets at 100,000: a list, search or page at most 60 calls and 1 s locally, cold (⚠ marks a',
    'miss); a rush answers no 409 and no 5xx (⚠ marks one). A CSV export is not a page: one run, and its 30 ms and',
    '100 ms figures are estimates (its record reads run 32 or 64 at a time: calls / that many round trips added to the',
    'local time). A rush is 200 (or 100) requests at once, each run on a fresh event ten seats short of full (or a',
    'fresh set of gifts); its calls are all of its requests together.',
    '',
    '| Operation | Records of each kind | Store calls (cold / warm) | Local wall time (cold / warm) | Peak RSS | At 30 ms a call | At 100 ms a call | Note |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(tableRow),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchScale());
