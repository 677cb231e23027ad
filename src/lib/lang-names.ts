import type { Lang } from './lang.ts';

/**
 * Each language's name in English, for staff: the dashboard, the inbox and the
 * campaign's notification emails stay English (docs/decisions/166-spanish.md). The public switcher
 * labels each language in itself; that is page copy, not this.
 */
export const LANG_NAMES_FOR_STAFF: Record<Lang, string> = { en: 'English', es: 'Spanish' };
