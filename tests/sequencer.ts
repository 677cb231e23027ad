import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The `sequence.groupOrder`s (vitest.config.ts, vitest.pages.config.ts): the ALONE browser files first, one at a
 * time, then every other project. Not 0 for the ALONE files: vitest runs files without parallelism whose group is
 * the default, 0, after every group.
 */
export const ALONE_GROUP = 1;
export const AFTER_ALONE = 2;

/**
 * The order test files start in (docs/decisions/163-tests.md): longest first, across every project, so
 * the 2 cores are shared by API files (CPU in the test worker) and browser files (CPU in Chromium and the dev
 * server) side by side, and no long file starts last. Vitest's own order runs project after project (every API
 * file, then every browser file: one kind of work at a time) and, on a clean clone with no cache of earlier runs,
 * sorts by file size, which says little about a file's time.
 *
 * A file's expected time: this machine's last run of it (vitest's cache), else tests/durations.json (measured,
 * written by `npm run test:durations`), else the median of the known files (a new file starts mid-pack). Failed
 * files still go first, `sequence.groupOrder` still holds (browser-alone before the rest). A worker that finishes a
 * file takes the next file of its own project from this order, ahead of the head of the queue (vitest's pool as
 * patched by patches/vitest+5.1.1.dev.patch): the order sets the kinds the workers start with and, within each
 * kind, which file comes next.
 */
const MEASURED = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;
const known = Object.values(MEASURED).toSorted((a, b) => a - b);
const MEDIAN_MS = (known[Math.floor(known.length / 2)] ?? 5) * 1000;

export default class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const facts = new Map(
      files.map((spec) => {
        const cached = cache.getTestSpecificationResult(spec);
        const measured = MEASURED[relative(root, spec.moduleId)];
        const ms = cached?.duration ?? (measured === undefined ? MEDIAN_MS : measured * 1000);
        return [spec, { ms, failed: cached?.failed ?? false }];
      }),
    );
    const sorted = [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      const x = facts.get(a)!;
      const y = facts.get(b)!;
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      return y.ms - x.ms;
    });
    const groups = Map.groupBy(sorted, (spec) => spec.project.config.sequence.groupOrder);
    const ms = (spec: TestSpecification) => facts.get(spec)!.ms;
    return Promise.resolve([...groups.values()].flatMap((group) => interleave(group, ms)));
  }
}

/**
 * One group's files with the browser files and the rest (unit, API, page files) mixed in proportion to their
 * expected time, each kind still longest first (failed first). A browser file waits on Chromium and the dev server
 * much of its time (about a third of a core), an API file keeps a core busy: run only browser files side by side,
 * as longest-first alone did for the first minutes (the longest files are all browser files), and the cores idle;
 * run the API files last together and they queue for the cores. Mixed, both kinds are running from the first file
 * to the last and end together. The next file taken is the one of the kind that is behind: the lower share of its
 * kind's expected time already queued.
 */
export function interleave<T extends { project: { name: string } }>(
  files: T[],
  ms: (file: T) => number,
): T[] {
  const isBrowser = (file: T) => file.project.name.startsWith('browser');
  const kinds = [files.filter(isBrowser), files.filter((f) => !isBrowser(f))];
  const totals = kinds.map((kind) => kind.reduce((sum, f) => sum + ms(f), 0));
  const queued = [0, 0];
  const next = [0, 0];
  const out: T[] = [];
  while (out.length < files.length) {
    const share = (k: number) => (next[k]! < kinds[k]!.length ? queued[k]! / (totals[k]! || 1) : Infinity);
    const k = share(0) <= share(1) ? 0 : 1;
    const file = kinds[k]![next[k]!]!;
    next[k]! += 1;
    queued[k]! += ms(file);
    out.push(file);
  }
  return out;
}
