import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * The packages browser code imports, found by reading the source (docs/decisions/162-public-pages-and-performance.md):
 * the dev server pre-bundles exactly these when it starts (astro.config.mjs
 * `optimizeDeps.include`). A dependency Vite first meets at run time makes it
 * re-optimise, answer "504 Outdated Optimize Dep" for modules already loaded
 * and reload the page, which is how the dashboard broke mid-test when the 2FA
 * QR code (uqr) and the link builder (qrcode) arrived. Declared by the code
 * itself, so a new browser dependency cannot be forgotten here.
 */

/** Folders whose modules run in the browser (islands, dashboard, and what they import). */
const CLIENT_DIRS = ['src/islands', 'src/admin', 'src/lib/client', 'src/lib/schemas', 'src/content'];
/** Browser modules at the top of src/lib (the rest of src/lib/server never reaches a browser). */
const CLIENT_FILES = /^src\/lib\/[^/]+\.(ts|tsx|mjs)$/;

const IMPORT = [
  // import x from 'p'; import { a,\n b } from 'p'; export { a } from 'p' (not `import type` / `export type`)
  /(?:^|[\n;])\s*(?:import|export)\s+(?!type\b)[^'"]*?\sfrom\s*['"]([^'"]+)['"]/g,
  // import 'p' (side effects)
  /(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g,
  // import('p')
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** @param {string} dir @returns {Generator<string>} */
function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) yield path;
  }
}

/**
 * Bare package specifiers (with subpaths, e.g. `react-dom/client`) imported by browser code under `root`.
 * @returns {string[]}
 */
export function clientDependencies(root = process.cwd()) {
  /** @type {Set<string>} */
  const found = new Set();
  const paths = [
    ...CLIENT_DIRS.flatMap((d) => [...files(join(root, d))]),
    ...[...files(join(root, 'src/lib'))].filter((p) =>
      CLIENT_FILES.test(relative(root, p).replaceAll('\\', '/')),
    ),
  ];
  for (const path of paths) {
    const text = readFileSync(path, 'utf8');
    for (const re of IMPORT) {
      for (const m of text.matchAll(re)) {
        const spec = m[1] ?? '';
        if (/^[./]/.test(spec) || /^(node|astro|virtual):/.test(spec) || /^astro(\/|$)/.test(spec)) continue;
        if (spec.endsWith('.css')) continue;
        found.add(spec);
      }
    }
  }
  return [...found].sort();
}
