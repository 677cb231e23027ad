import { z } from './zod.ts';
import { fingerprint } from '../fingerprint.ts';
import { DEFAULT_LANG, LANGS, type Lang } from '../lang.ts';

/*
 * Translations of staff-edited records (docs/decisions/166-spanish.md): an article's or an
 * event's version in another language is kept in the record itself, under
 * `translations[lang]`, with a fingerprint of the English it was made from.
 * When the English changes, the fingerprint no longer matches: the dashboard
 * shows the translation as stale until someone updates or confirms it.
 */

/**
 * Languages a record can be translated into: every language but the record's
 * own, the default. (`DEFAULT_LANG` is typed `Lang`, so the type names it
 * literally; TRANSLATION_LANGS is derived at run time and agrees.)
 */
export type TranslationLang = Exclude<Lang, 'en'>;
export const TRANSLATION_LANGS = LANGS.filter((l): l is TranslationLang => l !== DEFAULT_LANG);
export const TranslationLangSchema = z.enum(TRANSLATION_LANGS as [TranslationLang, ...TranslationLang[]]);

export function isTranslationLang(value: unknown): value is TranslationLang {
  return typeof value === 'string' && (TRANSLATION_LANGS as readonly string[]).includes(value);
}

/** What every stored translation records about its English source. */
export const translationSource = {
  /** `sourceHash` of the English fields this translation was made from, or last confirmed against. */
  sourceHash: z.string(),
  /** The English record's updatedAt at that moment (which saved version it was). */
  sourceUpdatedAt: z.string(),
  /** When the translation itself last changed or was confirmed. */
  updatedAt: z.string(),
};

/**
 * The fingerprint of the English fields a translation follows (title, excerpt
 * and content of an article; title and description of an event). Other fields
 * (author, image, date) are not translated, so changing them never makes a
 * translation stale. Pure and synchronous: the dashboard computes it too.
 */
export const sourceHash = (fields: readonly string[]): string => fingerprint(JSON.stringify(fields));

export type TranslationStatus = 'missing' | 'current' | 'stale';

/** A translation is stale when the English it was made from is no longer the English of the record. */
export function translationStatus(
  translation: { sourceHash: string } | undefined | null,
  currentSourceHash: string,
): TranslationStatus {
  if (!translation) return 'missing';
  return translation.sourceHash === currentSourceHash ? 'current' : 'stale';
}

/** The stored translations of a record, by language (none for records from before translations existed). */
export const translationsOf = <T extends z.ZodType>(translation: T) =>
  z.partialRecord(TranslationLangSchema, translation).default({});

/** The input side of `translationsOf`: per language, a new version, or null to remove it. */
export const translationsInput = <T extends z.ZodType>(translation: T) =>
  z.partialRecord(TranslationLangSchema, translation.nullable()).optional();

/**
 * The input side: a form sends `translations: { es: {...} }` to create or
 * replace the Spanish version, `{ es: null }` to remove it, and leaves it out
 * to keep what is stored. `upToDate: true` marks it as matching the English
 * being saved without changing its text ("Mark as up to date").
 */
export const upToDate = z.boolean().optional();
