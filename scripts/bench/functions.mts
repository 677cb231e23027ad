/**
 * Function cold starts: every function bundled the way Netlify deploys it
 * (scripts/lib/bundle-functions.mts), its size, and the time to import its
 * bundled module in a fresh `node` process (median of 5), with the npm
 * packages it loads from the node_modules shipped beside it. (The platform's
 * entry file wraps that module in Netlify's Lambda bootstrap, which imports
 * only inside AWS Lambda; it is the same for every function.) A baseline
 * commit (the one the function start-up work started from, or BENCH_FUNCTIONS_BASELINE) is
 * bundled from a temporary git worktree and measured in the same run, side by
 * side, so the ratio holds on a noisy machine.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bundleFunctions, type FunctionBundle } from '../lib/bundle-functions.mts';

const exec = promisify(execFile);

/** The commit before the function start-up work (docs/decisions/162-public-pages-and-performance.md): today's import times are measured against it. */
export const FUNCTIONS_BASELINE = process.env.BENCH_FUNCTIONS_BASELINE ?? '1d97c5e';
/** The public read functions, whose import time must be at most a third of the baseline's. */
export const PUBLIC_READ_FUNCTIONS = ['news', 'events', 'social-media-links', 'campaign-metrics'];
const RUNS = 5;

/** Imports `entry` in a fresh Node process and reports how long the import took (ms). */
async function importTime(entry: string): Promise<number> {
  const probe = [
    'const t = performance.now();',
    `await import(${JSON.stringify(pathToFileURL(entry).href)});`,
    'process.stdout.write(String(performance.now() - t));',
  ].join('\n');
  const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', probe], {
    // Production mode, as on Netlify: no local fallbacks are taken at import time.
    env: { ...process.env, APP_ENV: 'production', NODE_ENV: 'production' },
    cwd: tmpdir(),
  });
  return Number(stdout);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface FunctionStart {
  name: string;
  bytes: number;
  importMs: number;
}

/** Median import time of each bundle, the runs interleaved so machine noise hits every bundle alike. */
async function measure(sets: FunctionBundle[][]): Promise<FunctionStart[][]> {
  const samples = sets.map((set) => set.map(() => [] as number[]));
  for (let run = 0; run < RUNS; run++)
    for (const [s, set] of sets.entries())
      for (const [i, b] of set.entries()) samples[s]![i]!.push(await importTime(b.module));
  return sets.map((set, s) =>
    set.map((b, i) => ({ name: b.name, bytes: b.bytes, importMs: median(samples[s]![i]!) })),
  );
}

/**
 * Bundles `ref` from a temporary worktree of this repository, with this
 * checkout's node_modules hard-linked in (a copy that costs no disk; a symlink
 * would be copied into the bundles as a link, hiding their real size).
 */
async function bundleAt(ref: string, outDir: string): Promise<FunctionBundle[]> {
  const tree = await mkdtemp(join(tmpdir(), 'bench-baseline-'));
  await exec('git', ['worktree', 'add', '--detach', tree, ref]);
  try {
    await exec('cp', ['-al', join(process.cwd(), 'node_modules'), join(tree, 'node_modules')], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return await bundleFunctions(tree, outDir);
  } finally {
    await exec('git', ['worktree', 'remove', '--force', tree]).catch(() => undefined);
    await rm(tree, { recursive: true, force: true });
  }
}

export async function benchFunctions(): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'bench-functions-'));
  try {
    const current = await bundleFunctions(process.cwd(), join(work, 'current'));
    let baseline: FunctionBundle[] = [];
    try {
      baseline = await bundleAt(FUNCTIONS_BASELINE, join(work, 'baseline'));
    } catch (err) {
      console.error(`bench: could not bundle the baseline ${FUNCTIONS_BASELINE}:`, (err as Error).message);
    }
    const [now, before = []] = await measure(baseline.length ? [current, baseline] : [current]);
    const old = new Map(before.map((b) => [b.name, b]));
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    const rows = now!.map((f) => {
      const b = old.get(f.name);
      const ratio = b ? f.importMs / b.importMs : NaN;
      const target = PUBLIC_READ_FUNCTIONS.includes(f.name);
      const flag = target && !(ratio <= 1 / 3) ? ' ⚠' : '';
      return (
        `| ${f.name}${target ? ' (public read)' : ''} | ${kb(f.bytes)} | ${f.importMs.toFixed(0)} ms | ` +
        `${b ? `${kb(b.bytes)} | ${b.importMs.toFixed(0)} ms | ${ratio.toFixed(2)}${flag}` : '- | - | -'} |`
      );
    });
    return [
      '## Function cold start',
      '',
      `Every function bundled as Netlify deploys it (zip-it-and-ship-it, esbuild), its unzipped size (with the`,
      `node_modules shipped beside it), and the time to import its module in a fresh \`node\` process`,
      `(APP_ENV=production, packages loaded from those node_modules), median of ${RUNS}, interleaved with the same`,
      `measure of the baseline commit \`${FUNCTIONS_BASELINE}\` bundled from a temporary worktree in this run.`,
      'Target: each public read function imports in at most a third of the baseline time (ratio <= 0.33).',
      '',
      `| Function | Size | Import | Baseline size | Baseline import | Ratio |`,
      '|---|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// `node scripts/bench/functions.mts` prints this section alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && existsSync('netlify/functions')) {
  console.log(await benchFunctions());
}
