import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A newcomer reads a module in one sitting: no file under src/lib is over MAX_LINES lines
 * (docs/decisions/071-imports-flow-one-way.md, "The floors of the server"). A module that grows past it is split by job, as the
 * summary index was (src/lib/server/storage/summary-index/).
 */

const MAX_LINES = 600;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

const lines = (path: string) => readFileSync(path, 'utf8').replace(/\n$/, '').split('\n').length;

describe('file size', () => {
  it(`no file under src/lib is over ${MAX_LINES} lines`, () => {
    const all = files('src/lib');
    const offenders = all
      .map((path) => ({ path, lines: lines(path) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.path}: ${f.lines} lines`);
    expect(all.length).toBeGreaterThan(0);
    expect(offenders, `Over ${MAX_LINES} lines (split each by job):\n${offenders.join('\n')}`).toEqual([]);
  });
});
