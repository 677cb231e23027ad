/**
 * Where a run's CPU goes, by kind of process: samples /proc every half second while a command runs and prints
 * each kind's CPU-seconds (user + system) when the command ends. A process counts with its last sample (up to
 * half a second of a short-lived process can be missed). Used for docs/benchmarks.md, "`npm test` on a clean clone":
 *   d=$(mktemp -d) && git clone -q . $d/p && cd $d/p && \
 *     flock /tmp/campaign-heavy.lock /path/to/checkout/node_modules/.bin/node \
 *       /path/to/checkout/scripts/bench/cpu-by-process.mts -- bash .ci/run
 * (Node 24 from an installed checkout: the clone has no node_modules before `.ci/run` installs them, and the
 * machine's own Node 20 cannot run .mts.)
 * Chromium's processes count whatever their command line (its renderers do not name the run); every other
 * process counts only when its command line names the directory the command runs in.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const separator = process.argv.indexOf('--');
const command = separator >= 0 ? process.argv.slice(separator + 1) : [];
if (command.length === 0) {
  console.error('usage: node scripts/bench/cpu-by-process.mts -- <command> [args...]');
  process.exit(2);
}
const root = process.cwd();
const TICKS_PER_SECOND = 100;

/** The kind a process is counted under, or null for a process of something else on the machine. */
function kindOf(comm: string, cmd: string): string | null {
  if (/chrom|headless/.test(comm) || cmd.includes('headless_shell')) return 'chromium';
  if (comm === 'java') return 'java (Nu checker)';
  if (!cmd.includes(root)) return null;
  if (/astro(\.mjs|\/bin)?\S* dev\b/.test(cmd)) return 'dev server';
  if (/astro(\.mjs|\/bin)?\S* check\b/.test(cmd)) return 'astro check';
  if (cmd.includes('eslint')) return 'eslint';
  if (cmd.includes('vitest') && /workers|forks|threads/.test(cmd)) return 'vitest workers';
  if (cmd.includes('vitest')) return 'vitest main';
  return 'other';
}

/** The latest CPU-seconds of every process seen, by pid and start time (a pid can be reused). */
const seen = new Map<string, { kind: string; seconds: number }>();

function sample(): void {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = kindOf(comm, readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
      if (!kind) continue;
      // Fields 14 and 15 of stat (user and system ticks), 22 the start time: 11, 12 and 19 after the name.
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      seen.set(`${pid}@${fields[19]}`, { kind, seconds });
    } catch {
      // The process ended between the listing and the read.
    }
  }
}

const started = Date.now();
const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
const timer = setInterval(sample, 500);
child.on('exit', (code) => {
  clearInterval(timer);
  sample();
  const byKind = new Map<string, number>();
  for (const { kind, seconds } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + seconds);
  const total = [...byKind.values()].reduce((a, b) => a + b, 0);
  console.error(`\nCPU by process over ${((Date.now() - started) / 1000).toFixed(0)} s of wall time:`);
  for (const [kind, seconds] of [...byKind].sort((a, b) => b[1] - a[1]))
    console.error(`  ${kind.padEnd(20)} ${seconds.toFixed(0).padStart(6)} CPU-s`);
  console.error(`  ${'all'.padEnd(20)} ${total.toFixed(0).padStart(6)} CPU-s`);
  process.exit(code ?? 1);
});
