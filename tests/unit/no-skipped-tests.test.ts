import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A green run means every test ran: no test file skips, narrows or postpones a test
 * (vitest's skip/skipIf/runIf/todo/only, a test context's skip(), x-prefixed aliases, a skip option).
 * A failing precondition fails the test instead (docs/decisions/163-tests.md).
 * Files allowed to skip are listed here with the reason, and there are none.
 */
const SKIP_ALLOWLIST: Record<string, string> = {};

const root = process.cwd();
const TEST_DIRS = ['tests', 'src'];
const isTestSource = (path: string) => /\.(test|spec)\.(ts|tsx|mts)$/.test(path) || path.startsWith('tests/');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|mts)$/.test(e.name)) out.push(p);
  }
  return out;
}

// Written with a character class so this file does not match its own patterns.
const PATTERNS: [string, RegExp][] = [
  [
    'a modifier on it/test/describe',
    /\b(?:it|test|describe|suite|bench)(?:\.\w+)*\.(?:s[k]ip|s[k]ipIf|r[u]nIf|t[o]do|o[n]ly)\b/,
  ],
  ["a test context's skip()", /\.s[k]ip\s*\(/],
  ['an x-prefixed alias', /\bx(?:i[t]|test|describe)\s*\(/],
  ['a skip or todo option', /\b(?:s[k]ip|t[o]do)\s*:\s*true\b/],
];

/** Every line of `text` that skips a test, with the rule it breaks. */
function skips(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const rule = PATTERNS.find(([, re]) => re.test(line));
    if (rule) found.push(`line ${i + 1}: ${rule[0]}: ${line.trim()}`);
  });
  return found;
}

describe('no skipped tests', () => {
  it('the patterns catch each way of skipping', () => {
    const sk = 'sk' + 'ip';
    for (const line of [
      `it.${sk}('x', () => {})`,
      `describe.${sk}('x', () => {})`,
      `test.${sk}If(cond)('x', () => {})`,
      `it.${'run'}If(cond)('x', () => {})`,
      `it.each([1]).${sk}('x', () => {})`,
      `it.concurrent.${sk}('x', () => {})`,
      `it.to${'do'}('later')`,
      `it.on${'ly'}('x', () => {})`,
      `if (!cookie) ctx.${sk}();`,
      `context.${sk}('no admin')`,
      `${'x'}it('x', () => {})`,
      `it('x', { ${sk}: true }, () => {})`,
    ])
      expect(skips(line), line).toHaveLength(1);
    expect(skips("await page.locator('.skip-link').innerText()")).toEqual([]);
  });

  it('no test source skips a test outside the allowlist', () => {
    const files = TEST_DIRS.flatMap((d) => sources(join(root, d)))
      .map((f) => relative(root, f))
      .filter(isTestSource);
    expect(files.length).toBeGreaterThan(50);
    const found = files
      .filter((f) => !(f in SKIP_ALLOWLIST))
      .flatMap((f) => skips(readFileSync(join(root, f), 'utf8')).map((s) => `${f} ${s}`));
    expect(found).toEqual([]);
  });
});
