/**
 * `node scripts/run-parallel.mts check lint --live test:vitest`: runs npm scripts side by side and
 * fails if any fails. Each script's output is printed whole when it ends, so two logs never
 * interleave; the one script named after `--live` prints as it goes (the tests: a person watches
 * them). `npm test` runs the type check and the linters beside vitest, after `astro sync` (the
 * type-aware linter needs the types in .astro/): each of the checks uses one core, and vitest's
 * start (the production build) and its last files leave one idle (docs/decisions/163-tests.md). The other scripts
 * run at a lower priority than the live one, so they use what its files leave idle.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';

/** The niceness of the scripts beside the live one (0 is the default, 19 the lowest priority). */
const BACKGROUND_PRIORITY = 10;

// Arguments after the live script are its own (`npm test -- tests/unit/x.test.ts` reaches vitest).
const args = process.argv.slice(2);
const liveAt = args.indexOf('--live');
const live = liveAt >= 0 ? args[liveAt + 1] : undefined;
const liveArgs = liveAt >= 0 ? args.slice(liveAt + 2) : [];
const scripts = liveAt >= 0 ? [...args.slice(0, liveAt), ...(live ? [live] : [])] : args;
if (scripts.length === 0 || (liveAt >= 0 && !live)) {
  console.error('usage: node scripts/run-parallel.mts <npm script>... [--live <npm script> [its arguments]]');
  process.exit(2);
}

const results = await Promise.all(
  scripts.map(
    (script) =>
      new Promise<{ script: string; code: number; seconds: number }>((resolve) => {
        const started = performance.now();
        const extra = script === live && liveArgs.length ? ['--', ...liveArgs] : [];
        const child = spawn('npm', ['run', '--silent', script, ...extra], {
          stdio: script === live ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
        });
        // The checks beside the live script yield the cores to it: they take the time its files spend waiting
        // (a browser file on Chromium and the dev server) instead of slowing its files down. Set before npm starts
        // the script (npm takes a moment to load): whatever it starts inherits the priority.
        if (script !== live && live && child.pid !== undefined) {
          try {
            setPriority(child.pid, BACKGROUND_PRIORITY);
          } catch {
            // Already gone (its exit is reported below), or a system that refuses: it runs at the usual priority.
          }
        }
        const output: Buffer[] = [];
        child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
        child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
        child.on('close', (code) => {
          const seconds = (performance.now() - started) / 1000;
          process.stdout.write(
            `\n> npm run ${script} (${seconds.toFixed(0)} s)\n${Buffer.concat(output).toString()}`,
          );
          resolve({ script, code: code ?? 1, seconds });
        });
      }),
  ),
);

const failed = results.filter((r) => r.code !== 0);
for (const r of failed) console.error(`npm run ${r.script} failed (exit ${r.code})`);
process.exit(failed.length > 0 ? 1 : 0);
