import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/lib/fingerprint';
import { ENGLISH, TRANSLATIONS, copyFor } from '../../src/content/copy';
import {
  TRANSLATED_LANGS,
  acceptTranslations,
  hashFile,
  translationIssues,
  translationPairs,
} from '../../src/content/staleness';
import { localize, textEntries, type Translation } from '../../src/content/translation';

/*
 * Every Spanish text records the fingerprint of the English
 * it was translated from. When an English sentence in src/content changes,
 * this test fails naming the Spanish key; `npm run i18n:accept -- <key>`
 * records the new English and makes it pass.
 */

const recordedFor = (lang: (typeof TRANSLATED_LANGS)[number]) =>
  JSON.parse(readFileSync(hashFile(lang), 'utf8')) as Record<string, string>;

describe.each(TRANSLATED_LANGS)('the %s translation', (lang) => {
  it('has every English text, translated from the English as it is now', () => {
    const issues = translationIssues(lang, recordedFor(lang));
    const report = issues.map((i) => `${i.problem} ${i.key}: "${i.english.slice(0, 80)}"`).join('\n');
    expect(
      issues.map((i) => `${i.problem} ${i.key}`),
      `Translations to update (then run: npm run i18n:accept -- <key>):\n${report}`,
    ).toEqual([]);
  });

  it('a changed English text makes exactly its key stale, and accepting it clears it', () => {
    const recorded = recordedFor(lang);
    const key = 'platform.priorities.3.title';
    // The record as it would be had the English title read differently when it was translated.
    const before = { ...recorded, [key]: fingerprint('Community Development') };
    expect(translationIssues(lang, before)).toEqual([
      { key, problem: 'stale', english: ENGLISH.platform.priorities[3]!.title },
    ]);
    const { hashes, accepted } = acceptTranslations(lang, before, [key]);
    expect(accepted).toEqual([key]);
    expect(translationIssues(lang, hashes)).toEqual([]);
  });

  it('a text with no record is named until accepted; a prefix accepts everything under it', () => {
    const recorded = recordedFor(lang);
    const without = Object.fromEntries(Object.entries(recorded).filter(([k]) => !k.startsWith('ui.formUi.')));
    const issues = translationIssues(lang, without);
    expect(issues.length).toBeGreaterThan(10);
    expect(issues.every((i) => i.problem === 'unrecorded' && i.key.startsWith('ui.formUi.'))).toBe(true);
    expect(translationIssues(lang, acceptTranslations(lang, without, ['ui.formUi']).hashes)).toEqual([]);
  });

  it('translates the texts and keeps the facts (links, numbers) of the English', () => {
    const copy = copyFor(lang);
    expect(copy.campaign.primaryNav.map((l) => l.href)).toEqual(
      ENGLISH.campaign.primaryNav.map((l) => l.href),
    );
    expect(copy.campaign.primaryNav[0]!.label).not.toBe(ENGLISH.campaign.primaryNav[0]!.label);
    expect(copy.platform.priorities).toHaveLength(10);
    expect(copy.donate.contributionRules.map((r) => r.amount)).toEqual(
      ENGLISH.donate.contributionRules.map((r) => r.amount),
    );
    expect(copy.home.campaignPhases.map((p) => [p.start.iso, p.end.iso])).toEqual(
      ENGLISH.home.campaignPhases.map((p) => [p.start.iso, p.end.iso]),
    );
    // Every text has a translation that differs from the English somewhere (not a copy of it).
    const pairs = translationPairs(lang);
    expect(pairs.filter((p) => p.translated !== p.english).length / pairs.length).toBeGreaterThan(0.8);
  });
});

describe('the translation shape', () => {
  const english = { heading: 'Hello', href: '/about', count: 3, items: [{ title: 'A', icon: 'x' }] };

  it('localize takes texts from the translation and facts from the English', () => {
    const es: Translation<typeof english> = { heading: 'Hola', items: [{ title: 'Á' }] };
    expect(localize(english, es)).toEqual({
      heading: 'Hola',
      href: '/about',
      count: 3,
      items: [{ title: 'Á', icon: 'x' }],
    });
  });

  it('phrases built from arguments are compared by what they say, with placeholders', () => {
    const entries = textEntries({ status: (page: number, pages: number) => `Page ${page} of ${pages}` }, 'x');
    expect(entries.get('x.status')).toBe('Page {0} of {1}');
  });

  it('every language module of the registry exists', () => {
    for (const lang of TRANSLATED_LANGS)
      expect(Object.keys(TRANSLATIONS[lang]).sort()).toEqual(Object.keys(ENGLISH).sort());
  });
});
