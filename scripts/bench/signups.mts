/**
 * POST /api/newsletter at 50 connections, then count what was stored: every
 * 2xx answer must be one stored person (lost must be 0). A real local Blobs
 * server backs the real handler; texts go to the local outbox.
 *   npm exec -- node scripts/bench/signups.mts [seconds]
 */
import autocannon from 'autocannon';
import * as newsletterFn from '../../netlify/functions/text-signup.mts';
import { resetEnv, TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { benchBlobs, serveFunctions } from './serve.mts';

async function count(prefix: string): Promise<number> {
  let total = 0;
  for await (const page of kv('signups').keys(prefix)) total += page.length;
  return total;
}

export async function benchSignups(seconds = 10): Promise<{ markdown: string; lost: number }> {
  const stopBlobs = await benchBlobs();
  const quiet = console.info;
  console.info = () => {}; // one outbox log line per text would drown the output
  try {
    // This measures storage under load, not the abuse limits (scripts/bench/sms-abuse.mts does):
    // every request stands for another person (its own IP) and the site-wide caps are lifted.
    process.env.TEXT_SIGNUP_HOURLY_CAP = '1000000';
    process.env.SMS_DAILY_CAP = '1000000';
    resetEnv();
    const server = await serveFunctions([newsletterFn], { clientIpHeader: 'x-bench-client-ip' });
    let n = 0;
    const result = await autocannon({
      url: `${server.url}/api/newsletter`,
      connections: 50,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: server.url,
            'sec-fetch-site': 'same-origin',
          },
          setupRequest: (req) => {
            n += 1;
            const phone = `+1504${String(2_000_000 + n).padStart(7, '0')}`;
            return {
              ...req,
              headers: {
                ...req.headers,
                'x-bench-client-ip': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
              },
              body: JSON.stringify({
                firstName: `Bench${n}`,
                phone,
                smsConsent: true,
                captcha: TURNSTILE_TEST_TOKEN,
              }),
            };
          },
        },
      ],
    });
    // Requests still in flight at the deadline finish (and are stored) before counting.
    await new Promise((r) => setTimeout(r, 3000));
    await server.close();
    const ok = result['2xx'];
    const people = await count('person/');
    const lost = Math.max(0, ok - people);
    const rows = [
      ['requests sent', String(n)],
      ['2xx answers', String(ok)],
      ['non-2xx answers', String(result.non2xx)],
      ['errors / timeouts', `${result.errors} / ${result.timeouts}`],
      ['req/s (mean)', result.requests.average.toFixed(0)],
      ['latency p50 / p99', `${result.latency.p50} ms / ${result.latency.p99} ms`],
      ['people stored (includes requests answered after the deadline)', String(people)],
      ['lost (2xx without a stored person)', String(lost)],
    ];
    const markdown = [
      `## POST /api/newsletter under load (50 connections, ${seconds} s)`,
      '',
      'Every request from its own simulated client IP with the local captcha token, site-wide caps lifted: this',
      'measures storage under load; the abuse limits have their own section.',
      '',
      '| measure | value |',
      '|---|---|',
      ...rows.map(([k, v]) => `| ${k} | ${v} |`),
      '',
    ].join('\n');
    return { markdown, lost };
  } finally {
    console.info = quiet;
    delete process.env.TEXT_SIGNUP_HOURLY_CAP;
    delete process.env.SMS_DAILY_CAP;
    resetEnv();
    await stopBlobs();
  }
}

if (import.meta.main) {
  const { markdown, lost } = await benchSignups(Number(process.argv[2] ?? 10));
  console.log(markdown);
  process.exit(lost === 0 ? 0 : 1);
}
