/* Pure navigation helpers used by the header. */
import { basePath, langOfPath } from './lang-paths.ts';

/** Strip a trailing slash (except for the root) so "/about/" and "/about" compare equal. */
export function normalizePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * Whether a nav link is active for the current path. The link's own page gets
 * aria-current="page"; articles highlight News (/blog) as their section.
 */
export function navState(
  href: string,
  currentPath: string,
): { active: boolean; current: 'page' | 'true' | undefined } {
  const path = normalizePath(currentPath);
  if (path === href) return { active: true, current: 'page' };
  const sameLang = langOfPath(href) === langOfPath(path);
  if (sameLang && basePath(href) === '/blog' && basePath(path).startsWith('/article/'))
    return { active: true, current: 'true' };
  return { active: false, current: undefined };
}
