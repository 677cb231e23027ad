import {
  TRANSLATION_LANGS,
  type TranslationLang,
  type translationSource,
} from '../../schemas/translation.ts';

type Source = { [K in keyof typeof translationSource]: string };

/**
 * The translations a save leaves on a record (issue 12), from what is stored
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
    out[lang] = { ...fields, ...source } as T & Source;
  }
  return out;
}
