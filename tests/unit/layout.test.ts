import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The layout the README describes is the layout there is (docs/decisions/163-tests.md): every test
 * under tests/ (a test beside the code would not be run by any vitest project, so it would pass by never running),
 * and the README's "Project layout" names every folder the code uses.
 */

function walk(dir: string, depth: number): string[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => {
      const path = join(dir, name);
      if (!statSync(path).isDirectory()) return [path];
      return depth > 0 ? [path + '/', ...walk(path, depth - 1)] : [path + '/'];
    });
}

describe('project layout', () => {
  it('keeps every test under tests/', () => {
    const misplaced = walk('src', 10).filter((p) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(p));
    expect(misplaced).toEqual([]);
  });

  it("the README's layout names every top-level folder the code uses", () => {
    const readme = readFileSync('README.md', 'utf8');
    const layout = readme.slice(readme.indexOf('## Project layout'));
    const block = layout.slice(layout.indexOf('```'), layout.indexOf('```', layout.indexOf('```') + 3));
    const folders = [
      ...walk('src', 0),
      ...walk('src/lib', 0),
      ...walk('src/components', 0),
      ...walk('tests', 0),
      ...walk('scripts', 0),
      'netlify/functions/',
      'public/',
      'types/',
      'docs/decisions/',
    ].filter((p) => p.endsWith('/'));
    const unnamed = folders.filter((folder) => {
      const name = folder.split('/').slice(-2)[0]!;
      return !block.includes(folder) && !new RegExp(`(^|[\\s(,])${name}/`).test(block);
    });
    expect(unnamed).toEqual([]);
  });
});
