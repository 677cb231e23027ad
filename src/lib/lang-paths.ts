import { DEFAULT_LANG, LANGS, isLang, type Lang } from './lang.ts';
import { pagePath } from './urls.ts';

/*
 * The public site's URL scheme per language (docs/decisions/166-spanish.md): English at the root,
 * every other language under its own prefix (/es/about), like Astro's i18n
 * routing with `prefixDefaultLocale: false` (astro.config.mjs). Pure and
 * import-light, so pages, the sitemap and the tests share one rule.
 */

/** Locale tags per language: `<html lang>`, hreflang, Intl formatting and og:locale. */
export const LANG_TAGS: Record<Lang, { html: string; intl: string; og: string; name: string }> = {
  en: { html: 'en', intl: 'en-US', og: 'en_US', name: 'English' },
  es: { html: 'es', intl: 'es-US', og: 'es_US', name: 'Español' },
};

/**
 * Public pages that exist in every language (a path or a path prefix ending in
 * "/"). The admin and the staff password pages stay English. The RSVP cancellation
 * page is in both (its link, in the RSVP emails, is in the language the RSVP was sent in).
 */
const TRANSLATED = [
  '/',
  '/about',
  '/platform',
  '/donate',
  '/volunteer',
  '/blog',
  '/blog/page/',
  '/article/',
  '/events/',
  '/contact',
  '/privacy-policy',
  '/terms-of-use',
  '/vote',
  '/vote/plan',
  '/forms/',
  '/rsvp/cancel',
];

/** The language a path is in: its first segment when that names a language, else English. */
export function langOfPath(pathname: string): Lang {
  const first = pathname.split('/')[1] ?? '';
  return isLang(first) ? first : DEFAULT_LANG;
}

/** The path without its language prefix: "/es/about" -> "/about", "/es" -> "/". */
export function basePath(pathname: string): string {
  const lang = langOfPath(pathname);
  if (lang === DEFAULT_LANG) return pathname || '/';
  const rest = pathname.slice(lang.length + 1);
  return rest === '' || rest === '/' ? '/' : rest;
}

/** Whether a page (an unprefixed path) exists in every language. */
export function isTranslated(path: string): boolean {
  const bare = path.replace(/[?#].*$/, '');
  return TRANSLATED.some((p) => (p.endsWith('/') && p !== '/' ? bare.startsWith(p) : bare === p));
}

/**
 * A site path in a language: `localizedPath('/about', 'es')` is "/es/about",
 * `localizedPath('/', 'es')` is "/es", `localizedPath('/#form', 'es')` is
 * "/es#form". Paths that are not translated (the admin, API, files) and
 * anything that is not a site path (https:, mailto:, #) come back unchanged.
 */
export function localizedPath(path: string, lang: Lang): string {
  if (lang === DEFAULT_LANG || !path.startsWith('/') || path.startsWith('//')) return path;
  const base = basePath(path);
  if (!isTranslated(base)) return path;
  const [, bare = '', suffix = ''] = /^([^?#]*)(.*)$/.exec(base) ?? [];
  return `/${lang}${bare === '/' ? '' : bare}${suffix}`;
}

/** The same page in every language it exists in (for hreflang and the language switcher). */
export function alternatePaths(pathname: string): Partial<Record<Lang, string>> {
  const base = basePath(pagePath(pathname));
  if (!isTranslated(base)) return {};
  return Object.fromEntries(LANGS.map((lang) => [lang, localizedPath(base, lang)]));
}

/** Name of the cookie that remembers the visitor's chosen language (read by no server: no redirects). */
export const LANG_COOKIE = 'site-lang';
