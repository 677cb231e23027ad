import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * `npm run cycles` (part of `npm run lint`, so of `npm test`) must see type-only import cycles too: dpdm's
 * `--transform` compiles TypeScript to JavaScript first and so drops `import type`, which hid an eight-file cycle
 * among the schemas. This runs the script's own dpdm options on two files that import only each other's types.
 */
const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
  .scripts.cycles!;
const options = script
  .split(/\s+/)
  .slice(1)
  .filter((arg) => !arg.startsWith("'"));

function dpdm(dir: string) {
  return spawnSync(process.execPath, ['node_modules/dpdm/lib/bin/dpdm.js', ...options, `${dir}/*.ts`], {
    encoding: 'utf8',
  });
}

describe('the cycle check', () => {
  it('runs without --transform', () => {
    expect(options).not.toContain('--transform');
    expect(options).toEqual(expect.arrayContaining(['--exit-code', 'circular:1']));
  });

  it('fails on a cycle of type-only imports, and passes without one', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b?: B }\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport interface B { a?: A }\n");
    const cyclic = dpdm(dir);
    expect(cyclic.status, cyclic.stdout + cyclic.stderr).toBe(1);

    writeFileSync(join(dir, 'b.ts'), 'export interface B { n?: number }\n');
    const acyclic = dpdm(dir);
    expect(acyclic.status, acyclic.stdout + acyclic.stderr).toBe(0);
  });
});
