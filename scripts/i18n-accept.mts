/**
 * Records translations as made from today's English (docs/decisions/166-spanish.md): the
 * "accept as is" after a translator has updated a Spanish text, or checked
 * that an English edit (a typo fix) needs no change in Spanish.
 *
 *   npm run i18n:accept                              # list what is stale, missing or unrecorded
 *   npm run i18n:accept -- about.aboutIntro.lead     # accept one text (or every text under a prefix)
 *   npm run i18n:accept -- --all                     # accept every translated text
 *
 * Writes src/content/<lang>/translated-from.json; `npm test` then passes for
 * those keys. A missing translation is never accepted: write it first.
 */
import { readFile, writeFile } from 'node:fs/promises';
import {
  TRANSLATED_LANGS,
  acceptTranslations,
  hashFile,
  translationIssues,
} from '../src/content/staleness.ts';

const args = process.argv.slice(2);
const all = args.includes('--all');
const keys = args.filter((a) => !a.startsWith('--'));

for (const lang of TRANSLATED_LANGS) {
  const file = hashFile(lang);
  const recorded = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, string>;
  if (!all && keys.length === 0) {
    const issues = translationIssues(lang, recorded);
    for (const issue of issues) console.log(`${lang} ${issue.problem.padEnd(10)} ${issue.key}`);
    console.log(
      issues.length === 0
        ? `${lang}: every translation is up to date.`
        : `${lang}: ${issues.length} to look at. Accept with: npm run i18n:accept -- <key> (or --all)`,
    );
    continue;
  }
  const { hashes, accepted } = acceptTranslations(lang, recorded, all ? [] : keys);
  const unknown = keys.filter((k) => !Object.keys(hashes).some((h) => h === k || h.startsWith(`${k}.`)));
  if (unknown.length) console.error(`${lang}: no translated text under ${unknown.join(', ')}`);
  await writeFile(file, `${JSON.stringify(hashes, null, 2)}\n`);
  const list = accepted.length > 20 ? '' : `: ${accepted.join(', ')}`;
  console.log(`${lang}: accepted ${accepted.length} text(s)${accepted.length ? list : ''}`);
  if (unknown.length) process.exitCode = 1;
}
