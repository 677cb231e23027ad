import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Decision records are one file each (docs/decisions/README.md). Code and docs cite a record by its file, so a
 * citation of a record that does not exist (renamed, mistyped, never written) fails here, and so does a citation of
 * the former single decisions file.
 */

const ROOT = process.cwd();
const DECISIONS = join(ROOT, 'docs/decisions');
const SCANNED = ['src', 'netlify', 'scripts', 'tests', 'docs', '.ci'];
const SCANNED_FILES = [
  'README.md',
  'astro.config.mjs',
  'eslint.config.js',
  'vitest.config.ts',
  'vitest.pages.config.ts',
  'netlify.toml',
  '.env.example',
];
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|astro|md|css|toml|json|yml|yaml|html)$|^run$/;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name.startsWith('.tmp') ? [] : files(path);
    return TEXT.test(name) ? [path] : [];
  });
}

const scanned = [
  ...SCANNED.flatMap((d) => files(join(ROOT, d))),
  ...SCANNED_FILES.map((f) => join(ROOT, f)),
].filter((f) => existsSync(f));
const records = readdirSync(DECISIONS).filter((f) => /^\d{3}-[a-z0-9-]+\.md$/.test(f));

/** Every `docs/decisions/NNN-name.md` a file cites, and inside docs/decisions every `(NNN-name.md)` link. */
function citations(path: string): { line: number; record: string }[] {
  const out: { line: number; record: string }[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/docs\/decisions\/([^\s`'")\],;:]+\.md)/g))
        if (!m[1]!.startsWith('NNN-')) out.push({ line: i + 1, record: m[1]! });
      if (path.startsWith(DECISIONS))
        for (const m of text.matchAll(/\]\(((?:\.\/)?[^)\s/]+\.md)\)/g))
          out.push({ line: i + 1, record: m[1]!.replace(/^\.\//, '') });
    });
  return out;
}

describe('decision records', () => {
  it('every cited record exists', () => {
    const missing = scanned.flatMap((path) =>
      citations(path)
        .filter(({ record }) => !existsSync(join(DECISIONS, record)))
        .map(({ line, record }) => `${relative(ROOT, path)}:${line} cites docs/decisions/${record}`),
    );
    expect(missing).toEqual([]);
  });

  it('nothing cites the former single decisions file', () => {
    const old = scanned
      .filter(
        (path) =>
          !path.endsWith('decision-citations.test.ts') &&
          !path.endsWith('decisions/README.md') &&
          // The record of the split itself names the file it replaced.
          !path.endsWith('072-decision-records-one-file-each.md'),
      )
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .flatMap((text, i) =>
            text.includes('docs/decisions.md') ? [`${relative(ROOT, path)}:${i + 1}`] : [],
          ),
      );
    expect(old).toEqual([]);
  });

  it('code cites decisions, not issue numbers of a tracker outside the repository', () => {
    const code = scanned.filter(
      (path) =>
        !path.startsWith(join(ROOT, 'docs')) &&
        !path.endsWith('.md') &&
        !path.endsWith('decision-citations.test.ts'),
    );
    const cited = code.flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((text, i) => (/\b[Ii]ssue \d+/.test(text) ? [`${relative(ROOT, path)}:${i + 1}`] : [])),
    );
    expect(cited).toEqual([]);
  });

  it('the index lists every record once, and each record says its date, status and the code it governs', () => {
    const index = readFileSync(join(DECISIONS, 'README.md'), 'utf8');
    for (const record of records) {
      expect(index.split(`](${record})`).length - 1, record).toBe(1);
      const text = readFileSync(join(DECISIONS, record), 'utf8');
      expect(text, record).toMatch(/^# .+\n/);
      expect(text, record).toMatch(/^- Date: \d{4}-\d{2}-\d{2}$/m);
      expect(text, record).toMatch(/^- Status: (accepted|superseded by \d{3}( .+)?)$/m);
      expect(text, record).toMatch(/^- Governs: .+$/m);
      const superseded = /^- Status: superseded by (\d{3})/m.exec(text)?.[1];
      expect(superseded === undefined || records.some((r) => r.startsWith(`${superseded}-`)), record).toBe(
        true,
      );
    }
    // Numbers are unique.
    const numbers = records.map((r) => r.slice(0, 3));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
