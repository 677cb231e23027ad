/**
 * Benchmark: POST /api/newsletter at 50 connections for ~10 s, then count what
 * was stored. Run with `npm exec -- node scripts/bench/signups.mts [seconds]`.
 *
 * A real local Blobs server (temp directory) backs the real handler, served
 * through a tiny node:http adapter on 127.0.0.1; every request carries a
 * distinct phone number, so every 2xx answer must be one stored person and
 * one consent record (lost must be 0). Texts go to the local outbox.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { BlobsServer } from '@netlify/blobs/server';
import { setEnvironmentContext } from '@netlify/blobs';

const seconds = Number(process.argv[2] ?? 10);
process.env.APP_ENV = 'test';
process.env.SITE_URL = 'http://127.0.0.1';
console.info = () => {}; // the outbox log line per text would drown the output

const directory = await mkdtemp(join(tmpdir(), 'bench-blobs-'));
const token = randomBytes(16).toString('hex');
const blobs = new BlobsServer({ directory, token, logger: () => {} });
const { port: blobsPort } = await blobs.start();
const blobsUrl = `http://127.0.0.1:${blobsPort}`;
setEnvironmentContext({ siteID: 'bench-site', token, edgeURL: blobsUrl, uncachedEdgeURL: blobsUrl, apiURL: blobsUrl });

const { default: handler } = await import('../../netlify/functions/newsletter.mts');
const { kv } = await import('../../src/lib/server/store.ts');

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
  const response = await handler(request, { ip: '127.0.0.1', params: {} } as never);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address() as AddressInfo;

let n = 0;
const result = await autocannon({
  url: `http://127.0.0.1:${port}/api/newsletter`,
  connections: 50,
  duration: seconds,
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1', 'sec-fetch-site': 'same-origin' },
      setupRequest: (req) => {
        n += 1;
        const phone = `+1504${String(1_000_000 + n).padStart(7, '0')}`;
        return { ...req, body: JSON.stringify({ firstName: `Bench${n}`, phone, smsConsent: true }) };
      },
    },
  ],
});

async function count(store: 'signups', prefix: string): Promise<number> {
  let total = 0;
  for await (const page of kv(store).keys(prefix)) total += page.length;
  return total;
}
const ok = result['2xx'];
const people = await count('signups', 'person/');
const optIns = await count('signups', 'consent/');
const lost = Math.max(0, ok - people) + Math.max(0, ok - Math.min(optIns, ok));

const rows = [
  ['requests sent', String(n)],
  ['2xx answers', String(ok)],
  ['non-2xx answers', String(result.non2xx)],
  ['errors / timeouts', `${result.errors} / ${result.timeouts}`],
  ['req/s (mean)', result.requests.average.toFixed(0)],
  ['latency p50 / p99 (ms)', `${result.latency.p50} / ${result.latency.p99}`],
  ['people stored', String(people)],
  ['consent records stored (opt-ins + confirmations)', String(optIns)],
  ['lost (2xx without a stored person)', String(lost)],
];
console.log(`\nPOST /api/newsletter, 50 connections, ${seconds} s, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}\n`);
console.log('| measure | value |\n|---|---|');
for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);

server.close();
await blobs.stop();
await rm(directory, { recursive: true, force: true });
process.exit(lost === 0 ? 0 : 1);
