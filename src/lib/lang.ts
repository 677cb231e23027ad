/**
 * The site's languages (docs/decisions/166-spanish.md), declared once. Zod-free and import-free, so
 * pages, islands, schemas and functions can all use it.
 */
export const LANGS = ['en', 'es'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}
