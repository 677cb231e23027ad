/**
 * npm install's postinstall: applies patches/ to node_modules with patch-package (a patch to vitest's pool for the
 * tests: docs/decisions/163-tests.md, "Each worker keeps its kind"). An install without devDependencies
 * (`npm install --omit=dev`) has neither patch-package nor vitest: there is nothing to patch, and it says so instead
 * of failing the install. Plain JavaScript: such an install may run on a Node without TypeScript support.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

let bin;
try {
  bin = createRequire(import.meta.url).resolve('patch-package/index.js');
} catch {
  console.log('[postinstall] patch-package is not installed (no devDependencies): no patches applied');
  process.exit(0);
}
const run = spawnSync(process.execPath, [bin], { stdio: 'inherit' });
process.exit(run.status ?? 1);
