/**
 * GET /api/news with 20, 50 and 500 articles. Prints a markdown section for docs/benchmarks.md.
 *   npm exec -- node scripts/bench/news.mts        (BENCH_DURATION=seconds, default 10; 10 connections)
 *
 * A real local Blobs server, articles seeded through the content module (~3 KB of HTML each), the real
 * netlify/functions/news.mts handler on loopback, autocannon after a 2 s warm-up. 50 is PUBLIC_NEWS_LIMIT:
 * from there on the answer stops growing, so 50 vs 500 shows whether the cost follows the stored count.
 */
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { benchBlobs, serveFunctions } from './serve.mts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 10;

const PARAGRAPH =
  'The city has spent a decade patching the same streets. This plan publishes every work order, sets a response ' +
  'standard for cave-ins, and puts the remaining recovery money into projects that are ready to build. ';

export async function benchNews(): Promise<string> {
  const stopBlobs = await benchBlobs();
  try {
    // Imported after benchBlobs() has pointed the SDK at the local server.
    const newsFn = await import('../../netlify/functions/news.mts');
    const { articles, seedArticle } = await import('../../src/lib/server/content/articles.ts');

    const seedUpTo = async (count: number, from: number) => {
      const base = Date.UTC(2025, 0, 1);
      for (let id = from; id <= count; id++) {
        const at = new Date(base + id * 3_600_000).toISOString();
        await seedArticle(
          {
            id,
            title: `Campaign update number ${id}`,
            slug: `campaign-update-${id}`,
            content: `<h2>Update ${id}</h2>${`<p>${PARAGRAPH.repeat(3)}</p>`.repeat(4)}<ul><li>One</li><li>Two</li></ul>`,
            excerpt: 'What we did this week and what comes next.',
            imageUrl: '',
            author: ['Jordan Avery', 'Press Office', 'Campaign Team'][id % 3]!,
            isPublished: true,
            publishedAt: at,
            createdAt: at,
            updatedAt: at,
            translations: {},
          },
          false,
        );
      }
      await articles.syncAll();
      // The validated index rebuild an admin read does (the public reader rebuilds nothing and
      // would otherwise read every record on each request: the missing-index fallback, not the design).
      await articles.list();
    };

    const server = await serveFunctions([newsFn]);
    const url = `${server.url}/api/news`;
    const rows: string[] = [];
    const measure = async (count: number) => {
      const text = await (await fetch(url)).text();
      const returned = (JSON.parse(text) as { articles: unknown[] }).articles.length;
      await autocannon({ url, connections: CONNECTIONS, duration: 2 });
      const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
      rows.push(
        `| ${count} | ${returned} | ${Buffer.byteLength(text).toLocaleString('en-US')} | ${r.requests.average.toFixed(0)} | ` +
          `${r.latency.p50} ms | ${r.latency.p99} ms | ${r.errors + r.non2xx} |`,
      );
    };
    try {
      await seedUpTo(20, 1);
      await measure(20);
      await seedUpTo(50, 21);
      await measure(50);
      await seedUpTo(500, 51);
      await measure(500);
    } finally {
      // Let in-flight handlers finish before the store goes away.
      await new Promise((r) => setTimeout(r, 1000));
      await server.close();
    }
    return [
      '## GET /api/news',
      '',
      `${CONNECTIONS} connections, ${DURATION} s per run, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, local Blobs server.`,
      '',
      '| Articles stored | Articles returned | Response bytes | Req/s (avg) | p50 latency | p99 latency | Errors/non-2xx |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n');
  } finally {
    await stopBlobs();
  }
}

if (import.meta.main) console.log(await benchNews());
