import {
  TRANSLATION_LANGS,
  type TranslationLang,
  type translationSource,
} from '../../schemas/translation.ts';

type Source = { [K in keyof typeof translationSource]: string };

/**
 * The translations a save leaves on a record (docs/decisions/166-spanish.md), from what is stored
 * and what the form sent, per language:
 * - left out: the stored translation stays as it is (its fingerprint too, so an
 *   English edit makes it stale);
 * - null: removed;
 * - a new text, or a translation the record did not have: stored, made from the
 *   English being saved (`sourceHash`, `sourceUpdatedAt`);
 * - the same text with `upToDate: true`: confirmed against the English being
 *   saved ("Mark as up to date");
 * - the same text without it: unchanged (a save of the English form that
 *   resends the Spanish untouched does not mark it current).
 * `text` turns an input into the stored text fields (the caller sanitises there).
 */
export function nextTranslations<I extends { upToDate?: boolean | undefined }, T extends object>(
  stored: Partial<Record<TranslationLang, T & Source>>,
  input: Partial<Record<TranslationLang, I | null>> | undefined,
  text: (input: I, lang: TranslationLang) => T,
  source: { sourceHash: string; sourceUpdatedAt: string; updatedAt: string },
): Partial<Record<TranslationLang, T & Source>> {
  const out = { ...stored };
  if (!input) return out;
  for (const lang of TRANSLATION_LANGS) {
    if (!(lang in input)) continue;
    const next = input[lang];
    if (next === null || next === undefined) {
      delete out[lang];
      continue;
    }
    const fields = text(next, lang);
    const before = stored[lang];
    const changed =
      !before ||
      Object.entries(fields).some(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k as keyof T]));
    if (!changed && !next.upToDate) continue;
    out[lang] = { ...fields, ...source };
  }
  return out;
}

const SOURCE_KEYS = new Set(['sourceHash', 'sourceUpdatedAt', 'updatedAt']);
const textOf = (t: object) => JSON.stringify(Object.entries(t).filter(([k]) => !SOURCE_KEYS.has(k)));

/**
 * What a save did to each translation, for the audit entry's details:
 * `{ translation_es: 'added' | 'updated' | 'marked up to date' | 'removed' }`.
 */
export function translationDetail(
  before: { translations: Partial<Record<TranslationLang, object & Source>> } | null,
  after: { translations: Partial<Record<TranslationLang, object & Source>> },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const lang of TRANSLATION_LANGS) {
    const b = before?.translations[lang];
    const a = after.translations[lang];
    let what: string | null = null;
    if (!b && a) what = 'added';
    else if (b && !a) what = 'removed';
    else if (a && b && textOf(a) !== textOf(b)) what = 'updated';
    else if (a && b && a.sourceHash !== b.sourceHash) what = 'marked up to date';
    if (what) out[`translation_${lang}`] = what;
  }
  return out;
}
