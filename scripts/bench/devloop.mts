/**
 * The development loop: how fast `npm run dev` answers the API, and how long
 * `npm test` takes on a clean clone of this checkout.
 *
 * API latency: the dev server exactly as `npm run dev` starts it (seeded local
 * store, functions served in-process), then the same with Netlify's emulator
 * (CAMPAIGN_DEV_FUNCTIONS=emulator: a fresh worker and a fresh import per
 * request), side by side in one run. Warm: each endpoint is called once first.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startDevServer } from '../lib/dev-server.mts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { TEXT_SIGNUP_LIMITS } from '../../src/lib/server/texting/text-limits.ts';
import { PUBLIC_FORMS } from '../../src/lib/schemas/public-forms.ts';

const exec = promisify(execFile);

interface Latency {
  median: number;
  p95: number;
  statuses: Set<number>;
}

function summarize(samples: number[], statuses: Set<number>): Latency {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
  return { median: at(0.5), p95: at(0.95), statuses };
}

/*
 * Real sign-ups, all accepted: the Turnstile dummy token the local captcha mode takes, and no more
 * calls from the one local IP than its hourly limits allow (TEXT_SIGNUP_LIMITS): a warm call plus
 * `signupsPerIp - 1` samples, over `textsPerIp` distinct numbers (each new one gets a confirmation
 * text; a repeat is a second sign-up of the same number, within `signupsPerNumber`). Each dev
 * server starts on its own empty store (startDevServer), so both modes get the full budget.
 */
const SIGNUP_SAMPLES = TEXT_SIGNUP_LIMITS.signupsPerIp.max - 1;
const SIGNUP_NUMBERS = Math.min(TEXT_SIGNUP_LIMITS.textsPerIp.max, TEXT_SIGNUP_LIMITS.signupsPerIp.max);

async function timeCalls(base: string, n: number): Promise<{ news: Latency; signup: Latency }> {
  const get = () => fetch(`${base}/api/news`);
  let signups = 0;
  const post = () => {
    const k = signups++ % SIGNUP_NUMBERS;
    return fetch(`${base}/api/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({
        firstName: `Bench${k}`,
        phone: `+1504${String(7_000_000 + k).padStart(7, '0')}`,
        smsConsent: true,
        [PUBLIC_FORMS['text-signup'].captchaField]: TURNSTILE_TEST_TOKEN,
      }),
    });
  };
  const measure = async (send: () => Promise<Response>, count: number) => {
    await (await send()).arrayBuffer(); // warm: the first call may import the function
    const samples: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      const res = await send();
      await res.arrayBuffer();
      samples.push(performance.now() - t);
      statuses.add(res.status);
    }
    return summarize(samples, statuses);
  };
  return { news: await measure(get, n), signup: await measure(post, Math.min(n, SIGNUP_SAMPLES)) };
}

async function devServerLatency(mode: 'in-process' | 'emulator', n: number) {
  const dev = await startDevServer({
    root: process.cwd(),
    logFile: join('tests', '.tmp', `bench-dev-${mode}.log`),
    env: mode === 'emulator' ? { CAMPAIGN_DEV_FUNCTIONS: 'emulator' } : {},
  });
  try {
    return await timeCalls(dev.baseURL, n);
  } finally {
    await dev.stop();
  }
}

const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);

export async function benchDevServer(): Promise<string> {
  const n = 20;
  const fast = await devServerLatency('in-process', n);
  const slow = await devServerLatency('emulator', n);
  const row = (name: string, l: Latency) =>
    `| ${name} | ${ms(l.median)} | ${ms(l.p95)} | ${[...l.statuses].join(', ')}${[...l.statuses].some((s) => s >= 400) ? ' ⚠' : ''} |`;
  return [
    '## Development loop: API under `npm run dev`',
    '',
    `${n} sequential warm calls of GET /api/news and ${Math.min(n, SIGNUP_SAMPLES)} real text sign-ups (all must answer 200: the local captcha token, within one IP's hourly limits), median and p95, on this machine. "In-process" is what \`npm run dev\` runs`,
    '(scripts/dev/functions-in-process.mts); "emulator" is Netlify\'s function emulator it replaced, measured in the same run',
    '(CAMPAIGN_DEV_FUNCTIONS=emulator). Target: a warm call well under a second.',
    '',
    '| Call | Median | p95 | Statuses |',
    '|---|---:|---:|---|',
    row('GET /api/news (in-process)', fast.news),
    row('POST /api/newsletter (in-process)', fast.signup),
    row('GET /api/news (emulator)', slow.news),
    row('POST /api/newsletter (emulator)', slow.signup),
    '',
  ].join('\n');
}

/** Runs a command to completion, returning its wall time and the tail of its output. */
async function timed(cmd: string, args: string[], cwd: string): Promise<{ seconds: number; tail: string }> {
  const started = performance.now();
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  let tail = '';
  const collect = (c: Buffer) => {
    tail = (tail + c.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (${code}) after ${seconds.toFixed(0)} s\n${tail}`);
  return { seconds, tail };
}

/** `npm install` and `npm test` on a fresh clone of HEAD, as CI runs them (.ci/run). */
export async function benchTestWallTime(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'campaign-clean-clone-'));
  try {
    await exec('git', ['clone', '--quiet', '--no-hardlinks', process.cwd(), dir]);
    const { stdout: head } = await exec('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir });
    const install = await timed('npm', ['install', '--no-audit', '--no-fund'], dir);
    const test = await timed('npm', ['test'], dir);
    // eslint-disable-next-line no-control-regex
    const plain = test.tail.replace(/\x1b\[[0-9;]*m/g, '');
    const files = /Test Files\s+(.+)/.exec(plain)?.[1]?.trim() ?? '?';
    const tests = /Tests\s+(.+)/.exec(plain)?.[1]?.trim() ?? '?';
    return [
      '## Development loop: `npm test` on a clean clone',
      '',
      `A fresh \`git clone\` of ${head.trim()}, then what CI runs (.ci/run): \`npm install\`, then \`npm test\` (type check,`,
      'lint, unit, API and browser tests). Target: `npm test` in at most 8 minutes on this 2-core machine.',
      '',
      '| Step | Wall time |',
      '|---|---:|',
      `| npm install | ${install.seconds.toFixed(0)} s |`,
      `| npm test | ${test.seconds.toFixed(0)} s (${(test.seconds / 60).toFixed(1)} min) |`,
      '',
      `Result: test files ${files}; tests ${tests}.`,
      '',
    ].join('\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
