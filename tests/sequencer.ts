import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files start in (docs/decisions/163-tests.md): longest first, across every project, so
 * the 2 cores are shared by API files (CPU in the test worker) and browser files (CPU in Chromium and the dev
 * server) side by side, and no long file starts last. Vitest's own order runs project after project (every API
 * file, then every browser file: one kind of work at a time) and, on a clean clone with no cache of earlier runs,
 * sorts by file size, which says little about a file's time.
 *
 * A file's expected time: this machine's last run of it (vitest's cache), else tests/durations.json (measured,
 * written by `npm run test:durations`), else the median of the known files (a new file starts mid-pack). Failed
 * files still go first, `sequence.groupOrder` still holds (browser-alone after the rest).
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
    return Promise.resolve(sorted);
  }
}
