import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * `npm install` patches vitest's pool (patches/vitest+<version>.dev.patch, applied by patch-package at postinstall;
 * docs/decisions/163-tests.md, "Each worker keeps its kind"): a worker shared by a project's files (`isolate: false`)
 * takes the next queued file of its own project, where vitest itself kept it only for a file at the head of the
 * queue. `npm test` mixes the API, unit and browser files in one queue, so unpatched it started a worker anew at
 * nearly every change of kind (97 worker processes a run instead of 26, 65 CPU-seconds).
 */
const installed = (
  JSON.parse(readFileSync('node_modules/vitest/package.json', 'utf8')) as { version: string }
).version;

const scratch = join(process.cwd(), 'tests', '.tmp');
mkdirSync(scratch, { recursive: true });
// Under the project, so the config below resolves the project's vitest.
const dir = mkdtempSync(join(scratch, 'pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = `import { appendFileSync, readFileSync } from 'node:fs';\nimport { it } from 'vitest';\n`;

/**
 * Two workers; projects a and b, each sharing its workers; the queue a1, a2, b1, a3. a1 waits until the worker that
 * ran a2 has started its next file, so which file that is, and in which worker, is the pool's choice alone.
 * Answers the files in the order they started, with the process each ran in.
 */
function runMixedQueue(): { file: string; pid: number }[] {
  const log = join(dir, 'runs.log');
  writeFileSync(log, '');
  const record = (name: string) =>
    `appendFileSync(${JSON.stringify(log)}, '${name} ' + process.pid + '\\n');`;
  for (const name of ['a2', 'b1', 'a3'])
    writeFileSync(join(dir, `${name}.test.mjs`), `${HEADER}it('runs', () => { ${record(name)} });\n`);
  writeFileSync(
    join(dir, 'a1.test.mjs'),
    `${HEADER}it('waits for the file after a2', { timeout: 30_000 }, async () => {\n` +
      `  const started = () => readFileSync(${JSON.stringify(log)}, 'utf8').trim().split('\\n').length;\n` +
      `  while (started() < 2) await new Promise((r) => setTimeout(r, 20));\n` +
      `  ${record('a1')}\n});\n`,
  );
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `import { defineConfig } from 'vitest/config';\nimport { BaseSequencer } from 'vitest/node';\n` +
      `const order = ['a1', 'a2', 'b1', 'a3'];\n` +
      `const rank = (spec) => order.indexOf(spec.moduleId.replace(/^.*\\//, '').replace('.test.mjs', ''));\n` +
      `class Written extends BaseSequencer {\n` +
      `  sort(files) { return Promise.resolve(files.toSorted((x, y) => rank(x) - rank(y))); }\n}\n` +
      `export default defineConfig({ test: { maxWorkers: 2, sequence: { sequencer: Written }, projects: [\n` +
      `  { test: { name: 'a', include: ['a*.test.mjs'], isolate: false } },\n` +
      `  { test: { name: 'b', include: ['b*.test.mjs'], isolate: false } },\n` +
      `] } });\n`,
  );
  const run = spawnSync(
    process.execPath,
    [resolve('node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.config.mjs'],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1', NO_COLOR: '1' } },
  );
  expect(run.status, run.stdout + run.stderr).toBe(0);
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [file, pid] = line.split(' ');
      return { file: file!, pid: Number(pid) };
    });
}

describe("vitest's pool, as npm install leaves it", () => {
  it('has a patch made for the installed version', () => {
    expect(existsSync(`patches/vitest+${installed}.dev.patch`), `no patch for vitest ${installed}`).toBe(
      true,
    );
  });

  it('is applied at postinstall, and an install without devDependencies goes on, saying nothing was patched', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.postinstall).toBe('node scripts/apply-patches.mjs');
    // Outside the project: no node_modules to find patch-package in, as after `npm install --omit=dev`.
    const bare = mkdtempSync(join(tmpdir(), 'no-dev-'));
    copyFileSync('scripts/apply-patches.mjs', join(bare, 'apply-patches.mjs'));
    const run = spawnSync(process.execPath, [join(bare, 'apply-patches.mjs')], { encoding: 'utf8' });
    rmSync(bare, { recursive: true, force: true });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('no patches applied');
  });

  it(
    'hands a finished worker the next file of its own project, past a file of another',
    { timeout: 60_000 },
    () => {
      const runs = runMixedQueue();
      expect(runs.map((r) => r.file).toSorted()).toEqual(['a1', 'a2', 'a3', 'b1']);
      // The worker that ran a2 takes a3 ahead of b1, the head of the queue (unpatched: it ends, and b1 gets a new one).
      expect(runs.slice(0, 2).map((r) => r.file)).toEqual(['a2', 'a3']);
      expect(runs[1]!.pid).toBe(runs[0]!.pid);
    },
  );
});
