import { basePath, LANG_COOKIE, langOfPath } from '../lang-paths.ts';
import { isLang } from '../lang.ts';
import { sameSiteReferrer } from './referrer.ts';

/*
 * The language switcher's memory (docs/decisions/166-spanish.md): a click on a switcher link keeps
 * the choice in this browser, and on the next visit an English page offers
 * (never forces) the same page in the chosen language. No redirect, by choice
 * or by Accept-Language: crawlers and shared links get the page they asked for.
 */

const DISMISSED = `${LANG_COOKIE}.offer-dismissed`;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage disabled */
  }
}

/** The language this browser chose with the switcher, if any. */
export function chosenLanguage(): string | null {
  const value = read(LANG_COOKIE);
  return isLang(value) ? value : null;
}

/**
 * Keep the language of any switcher link the visitor follows; and, arriving
 * from this same page in the other language, keep this page's language (the
 * switcher was followed before that page's script had loaded).
 */
export function rememberLanguage(root: Document): void {
  const from = sameSiteReferrer();
  const here = root.location?.pathname ?? '';
  if (from && basePath(from.pathname) === basePath(here) && langOfPath(from.pathname) !== langOfPath(here)) {
    write(LANG_COOKIE, langOfPath(here));
  }
  root.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('[data-lang-switch]') : null;
    const lang = link?.getAttribute('data-lang-switch');
    if (isLang(lang)) write(LANG_COOKIE, lang);
  });
}

/**
 * Show the page's offer of another language (rendered hidden by the header)
 * when this browser chose that language before, or, having chosen none,
 * prefers it; until dismissed.
 */
export function offerLanguage(root: Document): void {
  const offer = root.querySelector<HTMLElement>('[data-lang-offer]');
  const lang = offer?.dataset.langOffer;
  if (!offer || !lang || read(DISMISSED) === lang) return;
  const chosen = chosenLanguage();
  const preferred = (navigator.languages?.[0] ?? navigator.language ?? '').toLowerCase().split('-')[0];
  if (chosen ? chosen !== lang : preferred !== lang) return;
  offer.hidden = false;
  offer.querySelector('[data-lang-offer-dismiss]')?.addEventListener('click', () => {
    write(DISMISSED, lang);
    offer.hidden = true;
  });
}
