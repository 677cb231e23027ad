/**
 * The Donations tab with 20,000 contributions. Prints a markdown section for docs/benchmarks.md.
 *   npm exec -- node scripts/bench/donations.mts     (BENCH_DURATION=seconds, default 10; BENCH_GIFTS, default 20000)
 *
 * A real local Blobs server. The gifts arrive through the real webhook handler
 * (20 at a time, spread over 180 campaign days, 12 refcodes, 4 UTM sources);
 * then GET /api/admin/donations for 30, 90 and 180 days runs under autocannon
 * with an editor's session, next to what a scan of every contribution record
 * (the design we did not choose) costs once.
 */
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { benchBlobs, serveFunctions } from './serve.mts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const GIFTS = Number(process.env.BENCH_GIFTS ?? 20_000);
const CONNECTIONS = 10;
const DAYS = 180;
const FIRST_DAY = Date.UTC(2025, 3, 15);
const day = (i: number) => new Date(FIRST_DAY + i * 86_400_000).toISOString().slice(0, 10);

export async function benchDonations(): Promise<string> {
  const stopBlobs = await benchBlobs();
  process.env.ACTBLUE_WEBHOOK_USERNAME = 'bench';
  process.env.ACTBLUE_WEBHOOK_PASSWORD = 'bench-password';
  try {
    const { resetEnv } = await import('../../src/lib/server/env.ts');
    resetEnv();
    const webhook = await import('../../netlify/functions/donations-actblue.mts');
    const admin = await import('../../netlify/functions/admin-donations.mts');
    const login = await import('../../netlify/functions/auth-login.mts');
    const { createUser } = await import('../../src/lib/server/auth/users.ts');
    const { kv } = await import('../../src/lib/server/storage/stores.ts');
    const { readAllBounded } = await import('../../src/lib/server/inbox/lists.ts');

    const server = await serveFunctions([webhook, admin, login]);
    const auth = `Basic ${Buffer.from('bench:bench-password').toString('base64')}`;
    const payload = (n: number) => {
      const d = day(n % DAYS);
      const refcode = `ref-${n % 12}`;
      return JSON.stringify({
        donor: { email: `donor${n % 7000}@example.org` },
        contribution: {
          orderNumber: `AB${String(n).padStart(9, '0')}`,
          createdAt: `${d}T15:00:00-05:00`,
          refcode,
          refcodes: { refcode, refcode_utm_source: ['email', 'sms', 'print', 'ads'][n % 4] },
          isRecurring: n % 5 === 0,
          recurringPeriod: n % 5 === 0 ? 'monthly' : 'once',
        },
        lineitems: [{ amount: `${5 + (n % 50) * 5}.00`, paidAt: `${d}T15:00:01-05:00`, lineitemId: n }],
      });
    };

    // Ingest through the real handler, 20 deliveries in flight.
    const started = Date.now();
    let next = 0;
    let failed = 0;
    const worker = async () => {
      while (next < GIFTS) {
        const n = next++;
        const res = await fetch(`${server.url}/api/donations/actblue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: payload(n),
        });
        if (res.status !== 201) failed += 1;
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    const ingestS = (Date.now() - started) / 1000;

    await createUser({
      username: 'bench-editor',
      email: 'bench-editor@example.org',
      password: 'bench-editor-password',
      role: 'editor',
      firstName: 'Bench',
      lastName: 'Editor',
    });
    const signIn = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ username: 'bench-editor', password: 'bench-editor-password' }),
    });
    const cookie = (signIn.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';

    const rows: string[] = [];
    for (const span of [30, 90, 180]) {
      const url = `${server.url}/api/admin/donations?from=${day(DAYS - span)}&to=${day(DAYS - 1)}`;
      const first = await fetch(url, { headers: { cookie } });
      const body = (await first.json()) as { daysRead: number; totals: { count: number } };
      await autocannon({ url, connections: CONNECTIONS, duration: 2, headers: { cookie } });
      const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { cookie } });
      rows.push(
        `| ${span} days | ${body.daysRead} | ${body.totals.count.toLocaleString('en-US')} | ${r.requests.average.toFixed(0)} | ` +
          `${r.latency.p50} ms | ${r.latency.p99} ms | ${r.errors + r.non2xx} |`,
      );
    }

    // The alternative: read every contribution record for one answer (16 reads in flight, as the inbox does).
    const scanStarted = Date.now();
    let scan: string;
    try {
      const all = await readAllBounded(kv('donations'), 'contribution/');
      scan = `one scan of every contribution record (${all.length.toLocaleString('en-US')} reads) took ${((Date.now() - scanStarted) / 1000).toFixed(1)} s`;
    } catch (err) {
      scan = `one scan of every contribution record failed after ${((Date.now() - scanStarted) / 1000).toFixed(1)} s (${(err as Error).message})`;
    }

    await new Promise((r) => setTimeout(r, 500));
    await server.close();
    return [
      '## Donations tab (GET /api/admin/donations) with 20,000 contributions',
      '',
      `${GIFTS.toLocaleString('en-US')} contributions delivered through the webhook handler (20 in flight) in ${ingestS.toFixed(0)} s ` +
        `(${(GIFTS / ingestS).toFixed(0)} per second, ${failed} not answered 201), over ${DAYS} campaign days. ` +
        `${CONNECTIONS} connections, ${DURATION} s per run, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, local Blobs server.`,
      '',
      '| Range | Day aggregates read | Gifts counted | Req/s (avg) | p50 latency | p99 latency | Errors/non-2xx |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `For comparison, ${scan}: the design not chosen, for a single answer. The aggregate read grows with the days in the range, not with the gifts.`,
      '',
    ].join('\n');
  } finally {
    await stopBlobs();
  }
}

if (import.meta.main) console.log(await benchDonations());
