import { fingerprint } from '../lib/fingerprint.ts';
import { ENGLISH, TRANSLATIONS, type Copy } from './copy.ts';
import { textEntries } from './translation.ts';

/*
 * Translations that cannot silently go stale (docs/decisions/166-spanish.md). Every text of
 * a translation records the fingerprint of the English text it was translated
 * from, in src/content/<lang>/translated-from.json. `translationIssues` lists
 * each text whose English has changed since (stale), that has no record
 * (unrecorded) or that the translation lacks (missing); the unit test
 * tests/unit/i18n-staleness.test.ts fails on any, naming the keys, and
 * `npm run i18n:accept [key ...]` records the current English as translated.
 */

export type TranslatedLang = keyof typeof TRANSLATIONS;
export const TRANSLATED_LANGS = Object.keys(TRANSLATIONS) as TranslatedLang[];

/** Where a language's fingerprints live, relative to the repository root. */
export const hashFile = (lang: TranslatedLang) => `src/content/${lang}/translated-from.json`;

export interface TranslationIssue {
  key: string;
  problem: 'missing' | 'stale' | 'unrecorded';
  /** The English text now (what a translator should look at). */
  english: string;
}

/** Every English text with its translation (undefined when missing), by key ("about.aboutIntro.lead"). */
export function translationPairs(
  lang: TranslatedLang,
): { key: string; english: string; translated?: string }[] {
  const pairs: { key: string; english: string; translated?: string }[] = [];
  for (const name of Object.keys(ENGLISH) as (keyof Copy)[]) {
    const english = textEntries(ENGLISH[name], name);
    const translated = textEntries(TRANSLATIONS[lang][name], name);
    for (const [key, text] of english) {
      const value = translated.get(key);
      pairs.push(value === undefined ? { key, english: text } : { key, english: text, translated: value });
    }
  }
  return pairs;
}

/** What is wrong with a language's translation, given its recorded fingerprints. */
export function translationIssues(
  lang: TranslatedLang,
  recorded: Record<string, string>,
): TranslationIssue[] {
  const issues: TranslationIssue[] = [];
  for (const { key, english, translated } of translationPairs(lang)) {
    if (translated === undefined || translated.trim() === '')
      issues.push({ key, problem: 'missing', english });
    else if (!(key in recorded)) issues.push({ key, problem: 'unrecorded', english });
    else if (recorded[key] !== fingerprint(english)) issues.push({ key, problem: 'stale', english });
  }
  return issues;
}

/**
 * The fingerprints after accepting the translations of `keys` (every key, or
 * those under a prefix such as "platform.priorities.3", when given) as made
 * from today's English. Keys no English text has any more are dropped; a
 * missing translation is never accepted.
 */
export function acceptTranslations(
  lang: TranslatedLang,
  recorded: Record<string, string>,
  keys: readonly string[] = [],
): { hashes: Record<string, string>; accepted: string[] } {
  const chosen = (key: string) => keys.length === 0 || keys.some((k) => key === k || key.startsWith(`${k}.`));
  const hashes: Record<string, string> = {};
  const accepted: string[] = [];
  for (const { key, english, translated } of translationPairs(lang)) {
    const hash = fingerprint(english);
    if (translated !== undefined && chosen(key)) {
      hashes[key] = hash;
      if (recorded[key] !== hash) accepted.push(key);
    } else if (key in recorded) {
      hashes[key] = recorded[key]!;
    }
  }
  return { hashes, accepted };
}
