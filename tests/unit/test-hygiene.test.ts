import { existsSync, globSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import config, { API_IN_ORDER, API_OWN_MODULES } from '../../vitest.config.ts';

/**
 * Rules every test file keeps (docs/decisions/163-tests.md, "Hygiene"), read from the source with the
 * TypeScript parser, each violation reported as file:line:
 * - no assertion that runs only sometimes: no `expect` inside the branch of an `if`, a `? :` or the right side
 *   of `&&`, `||`, `??` (assert the condition itself, or split the cases);
 * - tests do not depend on order: the unit and API projects run each file's tests shuffled (a test that needs
 *   an earlier one to have run fails there, in one fixed shuffled order anyone can replay), but for a backlog of
 *   API files that may only shrink (vitest.config.ts, API_IN_ORDER).
 */

interface ProjectTest {
  name: string;
  sequence?: unknown;
  include?: string[];
  exclude?: string[];
}

/** How many API files still ran in written order on 2026-11-29: mend one, lower this. */
const API_IN_ORDER_MAX = 2;

const FILES = globSync('tests/**/*.test.ts').sort();

/**
 * Browser files with conditional assertions not yet rewritten: [file, how many]. Counted, not located, so an
 * edit elsewhere in the file does not move them; a file may only go down (and must leave the list at zero).
 */
const BROWSER_BACKLOG: Record<string, number> = {
  'tests/browser/admin-ui.test.ts': 1,
  'tests/browser/admin.test.ts': 1,
  'tests/browser/build-output.test.ts': 1,
  'tests/browser/headers.test.ts': 2,
  'tests/browser/public-blog.test.ts': 2,
  'tests/browser/public-nojs.test.ts': 3,
  'tests/browser/routes.test.ts': 2,
  'tests/browser/validators.test.ts': 2,
  'tests/browser/voter-fixes.test.ts': 3,
};

/** `expect(...)`, `expect.soft(...)`, `expect.poll(...)`: an assertion (not an asymmetric matcher such as `expect.any`). */
function isAssertion(n: ts.CallExpression): boolean {
  const c = n.expression;
  if (ts.isIdentifier(c)) return c.text === 'expect';
  return (
    ts.isPropertyAccessExpression(c) &&
    ts.isIdentifier(c.expression) &&
    c.expression.text === 'expect' &&
    ['soft', 'poll'].includes(c.name.text)
  );
}

const SHORT_CIRCUIT = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
]);

/** Every assertion of a source that runs only when a condition holds: `file:line (where)`. */
function conditionalAssertions(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node, inside: string | null): void => {
    if (inside && ts.isCallExpression(n) && isAssertion(n)) {
      found.push(`${file}:${src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1} (in ${inside})`);
    }
    if (ts.isIfStatement(n)) {
      visit(n.expression, inside);
      visit(n.thenStatement, 'an if');
      if (n.elseStatement) visit(n.elseStatement, 'an else');
      return;
    }
    if (ts.isConditionalExpression(n)) {
      visit(n.condition, inside);
      visit(n.whenTrue, 'a ? :');
      visit(n.whenFalse, 'a ? :');
      return;
    }
    if (ts.isBinaryExpression(n) && SHORT_CIRCUIT.has(n.operatorToken.kind)) {
      visit(n.left, inside);
      visit(n.right, `the right of ${n.operatorToken.getText(src)}`);
      return;
    }
    ts.forEachChild(n, (c) => visit(c, inside));
  };
  visit(src, null);
  return found;
}

describe('the rule finds what it is for', () => {
  it.each([
    ['if (x) expect(a).toBe(1);', 1],
    ['if (x) { await step(); expect(a).toBe(1); } else expect(b).toBe(2);', 2],
    ['for (const r of rows) if (r.ok) expect(r.body).toBeTruthy();', 1],
    ['x ? expect(a).toBe(1) : expect(a).toBe(2);', 2],
    ['ok && expect(a).toBe(1);', 1],
    ['if (x) await expect.poll(() => a).toBe(1);', 1],
    // Not conditional: the assertion itself, an asymmetric matcher, a condition asserted.
    ['expect(x ? 1 : 2).toBe(1);', 0],
    ['expect(a).toEqual(b && expect.any(String));', 0],
    ['if (!res.ok) throw new Error(await res.text()); expect(res.status).toBe(200);', 0],
    ['expect(rows.every((r) => r.ok)).toBe(true);', 0],
  ])('%s: %i', (code, n) => {
    expect(conditionalAssertions('x.test.ts', code)).toHaveLength(n);
  });
});

describe('test hygiene', () => {
  it('no assertion runs only sometimes (unit, API and page tests)', () => {
    const found = FILES.filter((f) => !f.startsWith('tests/browser/')).flatMap((f) =>
      conditionalAssertions(f, readFileSync(f, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('browser tests: no new conditional assertion; the backlog only shrinks', () => {
    const counts = Object.fromEntries(
      FILES.filter((f) => f.startsWith('tests/browser/'))
        .map((f) => [f, conditionalAssertions(f, readFileSync(f, 'utf8'))] as const)
        .filter(([, found]) => found.length > 0)
        .map(([f, found]) => [f, found.length]),
    );
    expect(counts).toEqual(BROWSER_BACKLOG);
  });

  it('the unit and API projects shuffle the tests within each file; the in-order backlog only shrinks', () => {
    // The inline projects (the pages project is a file name): each one's name and test options.
    const projects = (config.test?.projects ?? []).flatMap((p) =>
      typeof p === 'object' && 'test' in p && p.test?.name ? [p.test as ProjectTest] : [],
    );
    const byName = Object.fromEntries(projects.map((t) => [t.name, t]));
    expect(byName).toMatchObject({
      unit: { sequence: { shuffle: { tests: true } } },
      api: { sequence: { shuffle: { tests: true } }, exclude: [...API_IN_ORDER, ...API_OWN_MODULES] },
      'api-own-modules': { sequence: { shuffle: { tests: true } }, include: API_OWN_MODULES },
      'api-in-order': { include: API_IN_ORDER },
    });
    // One fixed shuffled order: a run is repeatable.
    expect(config.test?.sequence?.seed).toEqual(expect.any(Number));
    expect(API_IN_ORDER.length).toBeLessThanOrEqual(API_IN_ORDER_MAX);
    expect(API_IN_ORDER.filter((f) => !existsSync(f))).toEqual([]);
  });

  it('an API file that mocks a module has a module graph of its own (the api project shares its modules)', () => {
    // Under `isolate: false` a handler loaded by an earlier file keeps the real module: the mock would see nothing.
    const mocking = FILES.filter(
      (f) => f.startsWith('tests/api/') && /\bvi\.(mock|doMock)\(/.test(readFileSync(f, 'utf8')),
    );
    expect(mocking).toEqual([...API_OWN_MODULES].sort());
  });
});
