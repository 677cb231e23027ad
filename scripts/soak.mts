/**
 * The suite under load: runs the API and browser test projects `runs` times in
 * a row while CPU-heavy work keeps both cores busy, and prints one line per
 * run. Proof that the tests assert invariants, not timings (docs/benchmarks.md,
 * "Development loop").
 *
 *   npm run soak                  3 runs, with one busy process beside them (the target:
 *                                 "while another CPU-heavy process runs")
 *   SOAK_LOAD=2 npm run soak      one busy process per core of this 2-core machine: harsher
 *   SOAK_RUNS=5 npm run soak      more runs
 *
 * Run it on a clean clone (`git clone`, `npm install`), alone on the machine.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
const runs = Number(process.env.SOAK_RUNS ?? 3);
const busy = Math.max(1, Number(process.env.SOAK_LOAD ?? 1));

/**
 * "Another CPU-heavy process": `busy` workers, each hashing without pause for the
 * whole run, a full core each (harsher than a build, which also waits on the disk).
 */
function startLoad(): { stop: () => Promise<void> } {
  const burn =
    "const c=require('node:crypto');let n=0;for(;;){c.createHash('sha256').update(String(n++)).digest();}";
  const workers = Array.from({ length: busy }, () =>
    spawn(process.execPath, ['-e', burn], { stdio: 'ignore' }),
  );
  return {
    stop: async () => {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.all(workers.filter((w) => w.exitCode === null).map((w) => once(w, 'exit')));
      console.log(`load: ${workers.length} busy processes ran beside the tests`);
    },
  };
}

async function runSuite(): Promise<{ ok: boolean; seconds: number; summary: string }> {
  const started = performance.now();
  const child = spawn(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'api',
      '--project',
      'api-own-modules',
      '--project',
      'api-in-order',
      '--project',
      'browser',
      '--project',
      'browser-alone',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  child.stderr?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  const [code] = (await once(child, 'exit')) as [number | null];
  // eslint-disable-next-line no-control-regex
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  const files = /Test Files\s+(.+)/.exec(plain)?.[1]?.trim() ?? '?';
  const tests = /Tests\s+(.+)/.exec(plain)?.[1]?.trim() ?? '?';
  if (code !== 0) console.error(plain.slice(-6000));
  return {
    ok: code === 0,
    seconds: (performance.now() - started) / 1000,
    summary: `files ${files}; tests ${tests}`,
  };
}

const load = startLoad();
const results: string[] = [];
let allOk = true;
try {
  for (let i = 1; i <= runs; i++) {
    const r = await runSuite();
    allOk &&= r.ok;
    const line = `run ${i}/${runs}: ${r.ok ? 'green' : 'FAILED'} in ${(r.seconds / 60).toFixed(1)} min (${r.summary})`;
    console.log(line);
    results.push(line);
  }
} finally {
  await load.stop();
}
console.log(results.join('\n'));
process.exit(allOk ? 0 : 1);
