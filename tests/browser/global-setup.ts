import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestProject } from 'vitest/node';

/*
 * Starts `astro dev` on a free port for the browser tests and stops it afterwards.
 * The dev server is what `npm run dev` runs: pages, on-demand routes, Netlify
 * functions and local Blobs (in .netlify/ of the checkout), in local mode
 * (APP_ENV=development), so it seeds the documented dev accounts and content
 * exactly as a developer's first `npm run dev` does. It runs in its own process
 * group, so teardown can stop npx, astro and anything they started with one signal.
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
  }
}

const STARTUP_TIMEOUT_MS = 120_000;
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = await findFreePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const restoreBlobs = await isolateBlobs(project.config.root);

  const child = spawn('npx', ['astro', 'dev', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: project.config.root,
    detached: true, // own process group, see stopGroup
    stdio: ['ignore', 'pipe', 'pipe'],
    env: devServerEnv(),
  });

  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const logs = () => `--- astro dev output ---\n${output}`;

  // Never leave a dev server behind, even if vitest dies without running teardown.
  const killOnExit = () => stopGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  try {
    await waitUntilServing(`${baseURL}/`, child, logs);
  } catch (error) {
    stopGroup(child, 'SIGKILL');
    await restoreBlobs();
    throw error;
  }

  project.provide('baseURL', baseURL);

  return async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      stopGroup(child, 'SIGTERM');
      const timedOut = await Promise.race([exited.then(() => false), sleep(5_000).then(() => true)]);
      if (timedOut) stopGroup(child, 'SIGKILL');
    }
    await restoreBlobs();
  };
}
