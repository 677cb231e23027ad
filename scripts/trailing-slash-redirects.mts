/**
 * Runs after `astro build` (npm run build): writes a 301 from `/page/` to `/page` for every
 * prerendered page into dist/_redirects, which Netlify reads (docs/decisions/new-w2-trailing-slash-redirects.md).
 * Rules already in the file (the adapter's, if any) are kept, ours first: they only apply where no
 * file answers.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { redirectRules } from './lib/trailing-slash.mts';

const dist = 'dist';
const MARK_START = '# trailing-slash redirects (scripts/trailing-slash-redirects.mts)';
const MARK_END = '# end of trailing-slash redirects';

const html = readdirSync(dist, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith('.html'))
  .map((e) => relative(dist, join(e.parentPath, e.name)));
const rules = redirectRules(html);
if (rules.length === 0) {
  console.error('trailing-slash-redirects: no prerendered pages found in dist/; update this script.');
  process.exit(1);
}
const file = join(dist, '_redirects');
const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
const kept = existing.replace(new RegExp(`${MARK_START}[\\s\\S]*?${MARK_END}\\n?`), '');
writeFileSync(file, `${MARK_START}\n${rules.join('\n')}\n${MARK_END}\n${kept}`);
console.log(`trailing-slash-redirects: ${rules.length} rules in ${file}`);
