/**
 * Runs after `astro build` and scripts/ssr-localized-404.mjs (npm run build): on Netlify `/about/`,
 * `/blog/` and `/es/` reach the on-demand function (no file has that path), whose handler answered them
 * with the 404 page; this puts the site's one trailing-slash rule in front of it
 * (docs/decisions/162-public-pages-and-performance.md). Fails the build if the function no longer looks as
 * expected.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { patchSsrSource } from './lib/trailing-slash.mts';

const file = '.netlify/v1/functions/ssr/ssr.mjs';
if (!existsSync(file)) {
  console.log('ssr-trailing-slash: no on-demand function in this build; nothing to do');
  process.exit(0);
}
const patched = patchSsrSource(readFileSync(file, 'utf8'));
if (patched === null) {
  console.error(
    `ssr-trailing-slash: unexpected ${file}; trailing-slash URLs would answer 404. Update this script.`,
  );
  process.exit(1);
}
writeFileSync(file, patched);
console.log('ssr-trailing-slash: /page/ answers 301 /page in the on-demand function');
