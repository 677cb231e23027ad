import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { langOfPath } from '../../../src/lib/lang-paths.ts';
import { builtFile, skeleton } from './pages.ts';

/**
 * The cheap check of a built page the slow checks do not open (helpers/pages.ts, `oneOfEachTemplate`): it was
 * built, in its own language, with a title and a heading of its own, from the same markup and code as `like`,
 * the page of its template and language that axe and the CSP test do open (docs/decisions/163-tests.md).
 */
export function expectSameTemplate(path: string, like: string): void {
  const html = readFileSync(builtFile(path), 'utf8');
  const opened = readFileSync(builtFile(like), 'utf8');
  expect(langOfPath(path), `${path} and ${like}: one language`).toBe(langOfPath(like));
  expect(/<html\b[^>]*\blang="([^"]+)"/.exec(html)?.[1], path).toBe(langOfPath(path));
  expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]?.trim(), `${path}: a title`).toMatch(/\S/);
  expect(/<h1\b[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]?.trim(), `${path}: a heading`).toMatch(/\S/);
  expect(skeleton(html), `${path}: the markup and code of ${like}`).toBe(skeleton(opened));
}
