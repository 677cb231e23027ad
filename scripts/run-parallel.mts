/**
 * `node scripts/run-parallel.mts check lint`: runs npm scripts side by side and
 * fails if any fails. Each script's output is printed whole when it ends, so
 * two logs never interleave. `npm test` uses it for the type check and the
 * linters, which each leave one of this machine's two cores idle most of the
 * time (docs/benchmarks.md, "Development loop"), after `astro sync`: the
 * type-aware linter needs the types in .astro/ that `astro check` would
 * otherwise write while it runs.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mts <npm script>...');
  process.exit(2);
}

const results = await Promise.all(
  scripts.map(
    (script) =>
      new Promise<{ script: string; code: number; seconds: number }>((resolve) => {
        const started = performance.now();
        const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        const output: Buffer[] = [];
        child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
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
