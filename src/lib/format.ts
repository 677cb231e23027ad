/* Pure formatting helpers shared by pages and islands. */
import { LANG_TAGS } from './lang-paths.ts';
import type { Lang } from './lang.ts';

const usdFormatter = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

/** Whole-dollar amount as shown on the site: 12000 -> "$12,000". */
export function formatUsd(amount: number): string {
  return usdFormatter.format(amount);
}

/**
 * A calendar date (YYYY-MM-DD) written out in a language: "October 11, 2025",
 * "11 de octubre de 2025" (es-US). Read at noon UTC so no time zone moves the day.
 */
export function longDate(iso: string, lang: Lang, options: Intl.DateTimeFormatOptions = {}): string {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString(LANG_TAGS[lang].intl, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
    ...options,
  });
}

/** A whole number in a language's digits grouping: 1350 -> "1,350". */
export function formatNumber(n: number, lang: Lang): string {
  return n.toLocaleString(LANG_TAGS[lang].intl);
}
