import { accessSync, constants, statfsSync } from 'node:fs';

/**
 * Where the test run keeps its temporary files (docs/decisions/163-tests.md, "Temporary files in memory"): a memory
 * file system when the machine has one with room, so the thousands of small files the runs write and delete (each
 * API file's local Blobs server keeps one file per blob; Chromium's profiles and caches; the validators' and the
 * build checks' scratch trees) cost no disk journal. The same files and the same checks: on this 2-core machine the
 * kernel's share of `npm test` fell from 195 to 134 CPU-seconds (docs/benchmarks.md).
 *
 * Set by vitest.config.ts before any worker, dev server or browser starts, so all of them inherit it. A TMPDIR
 * someone set is kept; a machine without a memory file system, or with less room than a run needs, keeps its own.
 */
export const MEMORY_TMPDIR = '/dev/shm';
/** The most a run holds at once is a few 100,000-record stores (about 0.5 GB each on a page-sized file system). */
export const MIN_FREE_BYTES = 4 * 1024 ** 3;

export function memoryTmpdir(
  env: NodeJS.ProcessEnv,
  freeBytes: (dir: string) => number = (dir) => {
    accessSync(dir, constants.W_OK);
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  },
): string | null {
  if (env.TMPDIR) return null;
  try {
    return freeBytes(MEMORY_TMPDIR) >= MIN_FREE_BYTES ? MEMORY_TMPDIR : null;
  } catch {
    return null;
  }
}
