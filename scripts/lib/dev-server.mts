/**
 * Starting and stopping `astro dev` for the browser tests and `npm run bench`:
 * the same server `npm run dev` runs (functions in-process, local Blobs, local
 * mode), on a free port, on a fresh store seeded by `npm run seed`, in its own
 * process group so one signal stops npx, astro and anything they started.
 *
 * The emulated Blobs live at a fixed path (.netlify/blobs-serve). So that a run
 * starts from a fresh seeded store and never touches a developer's local data,
 * that folder is moved aside and put back afterwards (also after a crashed run:
 * the next run restores it first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const STARTUP_TIMEOUT_MS = 180_000;
const LOG_LIMIT = 20_000;

export async function findFreePort(): Promise<number> {
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

/**
 * The environment of a child dev server or build: ours minus what vitest sets
 * for its workers (with VITEST/NODE_ENV=test inherited, Astro sets up Vite for
 * tests and the dev server answers every page with "Cannot GET").
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
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
    ...extra,
  };
}

/** Runs an npm script to completion; throws with the tail of its output when it fails. */
export async function npmRun(root: string, script: string, env: NodeJS.ProcessEnv, timeoutMs = 600_000) {
  const child = spawn('npm', ['run', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  if (code !== 0) throw new Error(`npm run ${script} failed (${code}).\n${output}`);
}

/**
 * Moves the developer's local Blobs aside; returns the function that puts them back. The run's own store lives in
 * a fresh temporary folder that the fixed path links to: in memory where the test run put TMPDIR there
 * (tests/memory-tmpdir.ts), so the dev server's thousands of small writes cost no disk journal.
 */
export async function isolateBlobs(root: string): Promise<() => Promise<void>> {
  const live = join(root, '.netlify', 'blobs-serve');
  const kept = join(root, '.netlify', 'blobs-serve.kept-during-tests');
  if (existsSync(kept)) {
    // A previous run died before restoring: its data (or the link to it) goes, the developer's comes back first.
    await rm(live, { recursive: true, force: true });
    await rename(kept, live);
  }
  // lstat, not exists: a link left by a run that died points at a folder that may be gone.
  const there = await lstat(live).catch(() => null);
  if (there?.isSymbolicLink()) await rm(live, { force: true });
  else if (there) await rename(live, kept);
  await mkdir(dirname(live), { recursive: true });
  const store = await mkdtemp(join(tmpdir(), 'dev-blobs-'));
  await symlink(store, live, 'dir');
  return async () => {
    // rm removes the link itself, not what it points at.
    await rm(live, { recursive: true, force: true });
    await rm(store, { recursive: true, force: true });
    if (existsSync(kept)) await rename(kept, live);
  };
}

/** The line in which astro dev names its address. */
const LOCAL_URL = /Local\s+(http:\/\/127\.0\.0\.1:\d+)\//g;

async function waitUntilServing(
  origin: () => string,
  child: ChildProcess,
  logs: () => string,
): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let lastAnswer = 'nothing';
  let url = `${origin()}/`;
  while (Date.now() < deadline) {
    url = `${origin()}/`;
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

export interface DevServer {
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * Isolates the local store, seeds it (`npm run seed`, as `npm run dev` does
 * first), starts `astro dev` on a free port and waits until it answers. Its
 * whole output goes to `logFile`. `stop()` ends the server and restores the
 * developer's store.
 */
export async function startDevServer(options: {
  root: string;
  logFile: string;
  env?: NodeJS.ProcessEnv;
}): Promise<DevServer> {
  const { root } = options;
  // Tests and benchmarks drive the scheduled jobs themselves: none runs by the clock under them unless asked
  // (docs/decisions/164-dev-server-and-local-mode.md).
  const env = childEnv({ CAMPAIGN_DEV_SCHEDULE: 'off', ...options.env });
  const restoreBlobs = await isolateBlobs(root);
  await npmRun(root, 'seed', env);
  const port = await findFreePort();
  // Where the server says it listens. Usually the port asked for; but when Astro restarts its server
  // during startup (a fresh clone re-optimises dependencies) and the old one still holds the port, the
  // new one moves to the next port and says so ("Local http://127.0.0.1:<port>/"): follow it
  // (seen in `npm run soak` on a busy machine).
  let baseURL = `http://127.0.0.1:${port}`;
  const child = spawn('npx', ['astro', 'dev', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: root,
    detached: true, // own process group, see stopGroup
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  await mkdir(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile);
  let tail = '';
  const collect = (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString()).slice(-LOG_LIMIT);
    // eslint-disable-next-line no-control-regex
    const announced = [...tail.replace(/\x1b\[[0-9;]*m/g, '').matchAll(LOCAL_URL)].at(-1)?.[1];
    if (announced) baseURL = announced;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // Never leave a dev server behind, even if the caller dies without stopping it.
  const killOnExit = () => stopGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
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
  try {
    await waitUntilServing(
      () => baseURL,
      child,
      () => `--- astro dev output ---\n${tail}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, stop };
}

/**
 * Fetches pages once, with the module scripts and island components they load,
 * so the dev server has transformed them before anyone measures or tests: a
 * cold page can take seconds on a busy machine.
 */
export async function warm(baseURL: string, paths: string[]): Promise<void> {
  for (const path of paths) {
    const html = await (await fetch(new URL(path, baseURL))).text();
    const urls = [...html.matchAll(/(?:src|component-url|renderer-url)="(\/[^"]+)"/g)].map((m) => m[1]!);
    await Promise.all(urls.map((u) => fetch(new URL(u, baseURL)).then((r) => r.arrayBuffer())));
  }
}
