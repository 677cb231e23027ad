// @ts-check
/**
 * Runs after `astro build` (npm run build). The Netlify adapter registers the
 * on-demand page function for every path ('/*', preferStatic). Where several
 * functions match a path, the platform's choice between that catch-all and our
 * /api/* functions is not something to rely on (netlify serve picks whichever
 * function it registered first, and /api/login then answers the 404 page).
 * So the SSR function is told never to take /api/*: `excludedPath`.
 * Fails the build if the adapter's output no longer looks as expected.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const file = '.netlify/v1/functions/ssr/ssr.mjs';
const marker = "excludedPath: ['/api/*'],";

if (!existsSync(file)) {
  console.log('ssr-exclude-api: no on-demand function in this build; nothing to do');
  process.exit(0);
}
const source = readFileSync(file, 'utf8');
if (source.includes(marker)) {
  console.log('ssr-exclude-api: already applied');
} else if (/path: '\/\*',/.test(source)) {
  writeFileSync(file, source.replace("path: '/*',", `path: '/*',\n\t\t\t\t${marker}`));
  console.log('ssr-exclude-api: the on-demand page function no longer matches /api/*');
} else {
  console.error(
    `ssr-exclude-api: unexpected ${file}; the /api/* functions could be shadowed. Update this script.`,
  );
  process.exit(1);
}
