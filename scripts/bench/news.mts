/**
 * Benchmark: GET /api/news with 20 and with 500 articles.
 *
 *   npm exec -- node scripts/bench/news.mts            (10 s, 10 connections per run)
 *   BENCH_DURATION=5 npm exec -- node scripts/bench/news.mts
 *
 * Starts a real local Blobs server on a temp dir, seeds articles through the
 * content module, serves the real function handler through a tiny node:http
 * adapter on loopback, and runs autocannon against it. Prints a markdown table
 * for docs/benchmarks.md. Node 24 runs this TypeScript file natively.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { setEnvironmentContext } from "@netlify/blobs";
import { BlobsServer } from "@netlify/blobs/server";
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";

process.env.APP_ENV = "test";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const directory = await mkdtemp(join(tmpdir(), "bench-news-"));
const token = randomBytes(16).toString("hex");
const blobs = new BlobsServer({ directory, token, logger: () => {} });
const { port: blobsPort } = await blobs.start();
const blobsUrl = `http://127.0.0.1:${blobsPort}`;
setEnvironmentContext({
  siteID: `bench-${randomBytes(4).toString("hex")}`,
  token,
  edgeURL: blobsUrl,
  uncachedEdgeURL: blobsUrl,
  apiURL: blobsUrl,
});

// Imported after the environment is set.
const news = await import("../../netlify/functions/news.mts");
const { articles, seedArticle } =
  await import("../../src/lib/server/content/articles.ts");

const PARAGRAPH =
  "The city has spent a decade patching the same streets. This plan publishes every work order, sets a response standard for cave-ins, " +
  "and puts the remaining recovery money into projects that are ready to build, reported dollar by dollar. ";

async function seedUpTo(count: number, from: number): Promise<void> {
  const base = Date.UTC(2025, 0, 1);
  for (let id = from; id <= count; id++) {
    const at = new Date(base + id * 3_600_000).toISOString();
    await seedArticle(
      {
        id,
        title: `Campaign update number ${id}`,
        slug: `campaign-update-${id}`,
        content: `<h2>Update ${id}</h2>${`<p>${PARAGRAPH.repeat(3)}</p>`.repeat(4)}<ul><li>One</li><li>Two</li></ul>`,
        excerpt: "What we did this week and what comes next.",
        imageUrl: "",
        author:
          id % 3 === 0
            ? "Press Office"
            : id % 3 === 1
              ? "Jordan Avery"
              : "Campaign Team",
        isPublished: true,
        publishedAt: at,
        createdAt: at,
        updatedAt: at,
      },
      false,
    );
  }
  await articles.syncAll();
}

/** node:http -> Request -> the real handler -> Response -> node:http. */
let inflight = 0;
function adapter(handler: typeof news.default) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    inflight++;
    try {
      const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
      });
      const context = {
        ip: req.socket.remoteAddress ?? "",
        params: {},
      } as unknown as Parameters<typeof handler>[1];
      const response = await handler(request, context);
      const body = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(body);
    } finally {
      inflight--;
    }
  };
}

const server = createServer(adapter(news.default));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/news`;

interface Row {
  articles: number;
  returned: number;
  bytes: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(count: number): Promise<Row> {
  const first = await fetch(url);
  const text = await first.text();
  const returned = (JSON.parse(text) as { articles: unknown[] }).articles
    .length;
  // Warm-up, then the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return {
    articles: count,
    returned,
    bytes: Buffer.byteLength(text),
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

const rows: Row[] = [];
try {
  // 50 is PUBLIC_NEWS_LIMIT: from there on the response no longer grows.
  await seedUpTo(20, 1);
  rows.push(await measure(20));
  await seedUpTo(50, 21);
  rows.push(await measure(50));
  await seedUpTo(500, 51);
  rows.push(await measure(500));
} finally {
  server.closeAllConnections();
  server.close();
  while (inflight > 0) await new Promise((r) => setTimeout(r, 20));
  await blobs.stop();
  await rm(directory, { recursive: true, force: true });
}

console.log(
  `\nGET /api/news — ${CONNECTIONS} connections, ${DURATION} s, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, local Blobs server\n`,
);
console.log(
  "| Articles stored | Articles returned | Response bytes | Req/s (avg) | p50 latency | p99 latency | Errors/non-2xx |",
);
console.log("|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(
    `| ${r.articles} | ${r.returned} | ${r.bytes.toLocaleString("en-US")} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${r.errors} |`,
  );
}
