// @ts-check
/**
 * Runs after `astro build` (npm run build). The Netlify adapter writes each
 * static page's headers (its Content-Security-Policy) as a rule for the page's
 * URL path, `/about`. Netlify matches header rules against the path asked for;
 * `netlify serve` matches them against the file it serves (`/about.html`), so
 * locally every page but `/` got only netlify.toml's minimal policy (the
 * bench's Observatory column showed it). Each page rule gets a twin for its
 * `.html` file with the same values: the same policy whichever path a server
 * matches, and for a visitor who asks for `/about.html` itself.
 * Fails the build if the adapter's output no longer looks as expected.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const file = '.netlify/v1/config.json';
if (!existsSync(file)) {
  console.log('static-headers-html: no adapter config in this build; nothing to do');
  process.exit(0);
}
/** @type {{ headers?: { for: string, values: Record<string, string> }[] }} */
const config = JSON.parse(readFileSync(file, 'utf8'));
if (!Array.isArray(config.headers)) {
  console.error(`static-headers-html: unexpected ${file} (no headers list). Update this script.`);
  process.exit(1);
}
const rules = config.headers;
const paths = new Set(rules.map((r) => r.for));
/** A page's URL path: no wildcard, no file extension, not the root (served as `/`). */
const isPage = (/** @type {string} */ path) =>
  path !== '/' && !path.includes('*') && !/\.[a-z0-9]+$/i.test(path);
const twins = rules
  .filter((r) => isPage(r.for) && r.values['Content-Security-Policy'] && !paths.has(`${r.for}.html`))
  .map((r) => ({ for: `${r.for}.html`, values: { ...r.values } }));
config.headers = [...rules, ...twins];
writeFileSync(file, JSON.stringify(config, null, 2));
console.log(`static-headers-html: ${twins.length} page rules also apply to their .html files`);
