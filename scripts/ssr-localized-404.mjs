// @ts-check
/**
 * Runs after `astro build` (npm run build), beside ssr-exclude-api.mjs. The Netlify
 * adapter's on-demand function answers every path no route matches with ONE
 * not-found page, the prerendered dist/404.html (English), before Astro's own
 * i18n error routing can pick /es/404. So an unknown /es/... path got the English
 * page in production (the dev server was right). This wraps the adapter's handler:
 * a path under a language prefix (src/lib/lang.ts) answers with that language's
 * prerendered 404 (dist/<lang>/404.html), any other with the adapter's own.
 * Fails the build if a language's 404 page is missing or the adapter's output no
 * longer looks as expected (tests/browser/build-output.test.ts checks the result).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_LANG, LANGS } from '../src/lib/lang.ts';

const file = '.netlify/v1/functions/ssr/ssr.mjs';
const marker = '// ssr-localized-404';

if (!existsSync(file)) {
  console.log('ssr-localized-404: no on-demand function in this build; nothing to do');
  process.exit(0);
}
const source = readFileSync(file, 'utf8');
if (source.includes(marker)) {
  console.log('ssr-localized-404: already applied');
  process.exit(0);
}
// The whole call, which Astro's adapter writes on one line (JSON has no raw line breaks): greedy to the
// line's end, so a page whose HTML contains "});" (an inline script) is not cut short.
const call = /export default createHandler\((\{"notFoundContent":.*\})\);$/m;
if (!call.test(source)) {
  console.error(
    `ssr-localized-404: unexpected ${file}; the localized 404 pages are not wired. Update this script.`,
  );
  process.exit(1);
}
/** @type {Record<string, string>} */
const pages = {};
for (const lang of LANGS) {
  if (lang === DEFAULT_LANG) continue;
  const page = `dist/${lang}/404.html`;
  if (!existsSync(page)) {
    console.error(`ssr-localized-404: ${page} is missing (src/pages/${lang}/404.astro).`);
    process.exit(1);
  }
  pages[lang] = readFileSync(page, 'utf8');
}
const wrapped = source.replace(
  call,
  (_, options) =>
    `${marker}: each language's prerendered 404 for unknown paths under its prefix (scripts/ssr-localized-404.mjs).\n` +
    `\t\t\tconst defaultHandler = createHandler(${options});\n` +
    `\t\t\tconst localizedNotFound = ${JSON.stringify(pages)};\n` +
    `\t\t\tconst localizedHandlers = Object.fromEntries(Object.entries(localizedNotFound).map(([lang, notFoundContent]) => [lang, createHandler({ notFoundContent })]));\n` +
    `\t\t\texport default function handler(request, context) {\n` +
    `\t\t\t\tconst lang = new URL(request.url).pathname.split('/')[1] ?? '';\n` +
    `\t\t\t\treturn (Object.hasOwn(localizedHandlers, lang) ? localizedHandlers[lang] : defaultHandler)(request, context);\n` +
    `\t\t\t}`,
);
writeFileSync(file, wrapped);
console.log(
  `ssr-localized-404: unknown paths under /${Object.keys(pages).join(', /')}/ get that language's 404 page`,
);
