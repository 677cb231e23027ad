import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Decision records (docs/decisions/README.md): one current record per concept in docs/decisions/, records folded into
 * them in docs/decisions/archive/. Code and docs cite a current record by its file, so a citation of a record that
 * does not exist or was folded (renamed, mistyped, archived) fails here, and so does a citation of the former single
 * decisions file. Only the decision records themselves may link the archive (a record's History line, an archived
 * record's own links). Every path a current record says it governs must exist.
 */

const ROOT = process.cwd();
const DECISIONS = join(ROOT, 'docs/decisions');
const ARCHIVE = join(DECISIONS, 'archive');
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
const RECORD = /^\d{3}-[a-z0-9-]+\.md$/;

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
const records = readdirSync(DECISIONS).filter((f) => RECORD.test(f));
const archived = readdirSync(ARCHIVE).filter((f) => RECORD.test(f));
const inDecisions = (path: string) => path.startsWith(DECISIONS + '/');
const inArchive = (path: string) => path.startsWith(ARCHIVE + '/');

/**
 * Every `docs/decisions/NNN-name.md` a file cites, and inside docs/decisions every relative `(NNN-name.md)` link, as
 * the path it names from the root of docs/decisions.
 */
function citations(path: string): { line: number; record: string; relativeLink: boolean }[] {
  const out: { line: number; record: string; relativeLink: boolean }[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/docs\/decisions\/([^\s`'")\],;:#]+\.md)/g))
        if (!m[1]!.startsWith('NNN-')) out.push({ line: i + 1, record: m[1]!, relativeLink: false });
      if (inDecisions(path))
        for (const m of text.matchAll(/\]\(((?:\.\.?\/)?(?:archive\/)?[^)\s/#]+\.md)(?:#[^)\s]*)?\)/g))
          out.push({
            line: i + 1,
            record: relative(DECISIONS, join(dirname(path), m[1]!)),
            relativeLink: true,
          });
    });
  return out;
}

/** Whether a citation from `path` resolves: to a current record, or (from a decision record) to the archive. */
function resolves(path: string, record: string, relativeLink: boolean): boolean {
  if (record.startsWith('archive/')) return inDecisions(path) && existsSync(join(DECISIONS, record));
  if (existsSync(join(DECISIONS, record))) return true;
  // An archived record keeps its text: its full-path citations may name records archived with it.
  return inArchive(path) && !relativeLink && existsSync(join(ARCHIVE, record));
}

/** The backticked paths of a record's `- Governs:` entry (its first line and the indented lines after it). */
function governedPaths(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('- Governs:'));
  if (start < 0) return [];
  let end = start + 1;
  while (end < lines.length && /^ {2}\S/.test(lines[end]!)) end++;
  return [
    ...lines
      .slice(start, end)
      .join(' ')
      .matchAll(/`([^`\s]+)`/g),
  ]
    .map((m) => m[1]!)
    .filter(
      (t) =>
        !t.startsWith('@') &&
        !t.startsWith('/') &&
        (t.includes('/') || /\.(ts|tsx|mts|mjs|cjs|js|astro|md|css|json|toml|ya?ml)$/.test(t)),
    )
    .map((t) => t.split('*')[0]!.replace(/\/$/, ''));
}

describe('decision records', () => {
  it('every cited record exists, and only decision records cite the archive', () => {
    const missing = scanned.flatMap((path) =>
      citations(path)
        .filter(({ record, relativeLink }) => !resolves(path, record, relativeLink))
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

  it('code and decision records name no issue number of a tracker outside the repository', () => {
    const cited = scanned
      .filter(
        (path) =>
          (inDecisions(path) || (!path.startsWith(join(ROOT, 'docs')) && !path.endsWith('.md'))) &&
          !path.endsWith('decision-citations.test.ts'),
      )
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .flatMap((text, i) => (/\b[Ii]ssues? \d+/.test(text) ? [`${relative(ROOT, path)}:${i + 1}`] : [])),
      );
    expect(cited).toEqual([]);
  });

  it('the index lists every current record once, and each says its date, that it is accepted, and what it governs', () => {
    const index = readFileSync(join(DECISIONS, 'README.md'), 'utf8');
    expect(index).toContain('](archive/README.md)');
    for (const record of records) {
      expect(index.split(`](${record})`).length - 1, record).toBe(1);
      const text = readFileSync(join(DECISIONS, record), 'utf8');
      expect(text, record).toMatch(/^# .+\n/);
      expect(text, record).toMatch(/^- Date: \d{4}-\d{2}-\d{2}$/m);
      expect(text, record).toMatch(/^- Status: accepted$/m);
      expect(text, record).toMatch(/^- Governs: .+$/m);
    }
  });

  it('the archive lists every archived record once, each folded into (or superseded by) a current record', () => {
    const index = readFileSync(join(ARCHIVE, 'README.md'), 'utf8');
    for (const record of archived) {
      expect(index.split(`](${record})`).length - 1, record).toBe(1);
      const text = readFileSync(join(ARCHIVE, record), 'utf8');
      const into = /^- Status: (?:folded into|superseded by) (\d{3}) /m.exec(text)?.[1];
      expect(into, record).toBeDefined();
      expect(
        records.some((r) => r.startsWith(`${into}-`)),
        `${record} names ${into}`,
      ).toBe(true);
    }
  });

  it('numbers are unique across current and archived records', () => {
    const numbers = [...records, ...archived].map((r) => r.slice(0, 3));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('every path a current record governs exists', () => {
    const missing = records.flatMap((record) =>
      governedPaths(readFileSync(join(DECISIONS, record), 'utf8'))
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${record} governs ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
