import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/chromium.ts';

/*
 * Once per browser-test run: builds the production site (dist/, for the tests
 * of built output and the CSP), seeds a fresh local Blobs store with
 * `npm run seed` exactly as `npm run dev` does, starts `astro dev` on a free
 * port (pages, on-demand routes, the functions in-process, local Blobs, in
 * local mode), warms it, and starts the one Chromium every test file connects
 * to. The dev server runs in its own process group, so teardown can stop npx,
 * astro and anything they started with one signal.
 *
 * The emulated Blobs live at a fixed path (.netlify/blobs-serve). So that tests
 * start from a fresh seeded store and never touch a developer's local data, that
 * folder is moved aside for the run and put back afterwards (also after a
 * crashed run: the next run restores it first).
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the dev server under test, e.g. http://127.0.0.1:43127 */
    baseURL: string;
    /** The shared Chromium's endpoint (helpers/browser.ts connects to it). */
    chromiumEndpoint: string;
  }
}

const STARTUP_TIMEOUT_MS = 120_000;
const BUILD_TIMEOUT_MS = 300_000;

/** The donation provider the production build under test is configured with (csp.test.ts). */
export const PROD_BUILD_DONATION_URL = 'https://secure.actblue.com/donate/avery-for-mayor-test';
/** Turnstile's documented always-pass site key: the build then loads the real widget script. */
const PROD_BUILD_TURNSTILE_SITE_KEY = '1x00000000000000000000AA';
const LOG_LIMIT = 20_000;

async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('could not determine a free port');
  return address.port;
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

async function waitUntilServing(url: string, child: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let lastAnswer = 'nothing';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`astro dev exited with code ${child.exitCode} before answering.\n${logs()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (response.ok) return;
      lastAnswer = `HTTP ${response.status}`;
    } catch {
      lastAnswer = 'no connection';
    }
    await sleep(300);
  }
  throw new Error(
    `astro dev did not answer ${url} within ${STARTUP_TIMEOUT_MS / 1000}s (last: ${lastAnswer}).\n${logs()}`,
  );
}

/**
 * The environment of the dev server: ours minus what vitest sets for its workers.
 * With VITEST/NODE_ENV=test inherited, Astro sets up Vite for tests and the dev
 * server answers every page with "Cannot GET".
 */
function devServerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST') continue;
    env[key] = value;
  }
  return {
    ...env,
    APP_ENV: 'development',
    DISABLE_DEV_TOOLBAR: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
    BROWSER: 'none',
  };
}

/** Moves the developer's local Blobs aside; returns the function that puts them back. */
async function isolateBlobs(root: string): Promise<() => Promise<void>> {
  const live = join(root, '.netlify', 'blobs-serve');
  const kept = join(root, '.netlify', 'blobs-serve.kept-during-browser-tests');
  if (existsSync(kept)) {
    // A previous run died before restoring: its test data goes, the developer's comes back first.
    await rm(live, { recursive: true, force: true });
    await rename(kept, live);
  }
  if (existsSync(live)) await rename(live, kept);
  return async () => {
    await rm(live, { recursive: true, force: true });
    if (existsSync(kept)) await rename(kept, live);
  };
}

/**
 * Builds the production site (npm run build) before the dev server starts, so
 * the CSP test can serve dist/ as Netlify would. Run first and alone: a build
 * beside a running dev server could make it restart.
 */
async function buildProduction(root: string): Promise<void> {
  const child = spawn('npm', ['run', 'build'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...devServerEnv(),
      APP_ENV: 'production',
      PUBLIC_DONATION_URL: PROD_BUILD_DONATION_URL,
      PUBLIC_TURNSTILE_SITE_KEY: PROD_BUILD_TURNSTILE_SITE_KEY,
    },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  if (code !== 0) throw new Error(`npm run build failed (${code}).\n${output}`);
}

/** `npm run seed` on the (fresh) local store, as `npm run dev` runs it first. */
async function seed(root: string): Promise<void> {
  const child = spawn('npm', ['run', 'seed'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: devServerEnv(),
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`npm run seed failed (${code}).\n${output.slice(-LOG_LIMIT)}`);
}

/**
 * The public routes and the dashboard, each fetched once before any test: the
 * dev server transforms the pages and their islands on first use, and a test
 * should not be the first visitor (a cold page can take seconds on a busy machine).
 */
const WARM_PATHS = ['/', '/about', '/platform', '/donate', '/volunteer', '/blog', '/contact', '/admin'];

async function warm(baseURL: string): Promise<void> {
  for (const path of WARM_PATHS) {
    const html = await (await fetch(new URL(path, baseURL))).text();
    // The module scripts and island components each page loads, transformed once here.
    const urls = [...html.matchAll(/(?:src|component-url|renderer-url)="(\/[^"]+)"/g)].map((m) => m[1]!);
    await Promise.all(urls.map((u) => fetch(new URL(u, baseURL)).then((r) => r.arrayBuffer())));
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = project.config.root;
  await buildProduction(root);
  await mkdir(join(root, 'tests', '.tmp'), { recursive: true });
  const port = await findFreePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const restoreBlobs = await isolateBlobs(root);
  await seed(root);

  const child = spawn('npx', ['astro', 'dev', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: root,
    detached: true, // own process group, see stopGroup
    stdio: ['ignore', 'pipe', 'pipe'],
    env: devServerEnv(),
  });

  // Everything the dev server says goes to tests/.tmp/astro-dev.log, for a failing test's post-mortem.
  const log = createWriteStream(join(root, 'tests', '.tmp', 'astro-dev.log'));
  let output = '';
  const collect = (chunk: Buffer) => {
    log.write(chunk);
    output = (output + chunk.toString()).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const logs = () => `--- astro dev output ---\n${output}`;

  // Never leave a dev server behind, even if vitest dies without running teardown.
  const killOnExit = () => stopGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  let browserServer: Awaited<ReturnType<typeof chromium.launchServer>> | null = null;
  try {
    await waitUntilServing(`${baseURL}/`, child, logs);
    await warm(baseURL);
    browserServer = await chromium.launchServer({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  } catch (error) {
    stopGroup(child, 'SIGKILL');
    await restoreBlobs();
    throw error;
  }

  project.provide('baseURL', baseURL);
  project.provide('chromiumEndpoint', browserServer.wsEndpoint());

  return async () => {
    await browserServer?.close();
    process.off('exit', killOnExit);
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      stopGroup(child, 'SIGTERM');
      const timedOut = await Promise.race([exited.then(() => false), sleep(5_000).then(() => true)]);
      if (timedOut) stopGroup(child, 'SIGKILL');
    }
    log.end();
    await restoreBlobs();
  };
}
