import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A clean `npm run dev` start (docs/decisions/164-dev-server-and-local-mode.md): Vite's dependency scan finds every
 * script tag in an .astro file with a regular expression, frontmatter comments included, and parses what follows
 * as a module. A comment that mentioned a script tag in PageScriptBundle.astro made every start print a red
 * "[ERROR] [vite] (!) Failed to run dependency scan … PARSE_ERROR" and skip pre-bundling.
 */
function astroFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.astro'))
    .map((e) => join(e.parentPath, e.name));
}

describe('the dev server dependency scan', () => {
  it('no .astro frontmatter mentions a script tag', () => {
    const offenders = astroFiles('src').filter((file) => {
      const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
      return /<script\b/i.test(frontmatter);
    });
    expect(offenders).toEqual([]);
  });
});
