/**
 * Outreach links for print and ads: a public page plus refcode and UTM tags
 * (pure, zod-free: used by the dashboard's link builder and its tests). The
 * refcode follows the ActBlue rule (letters, numbers, underscores; we also
 * allow hyphens), so the same code shows up in the Donations tab.
 */
export const LINK_PAGES = {
  donate: { path: '/donate', label: 'Donate' },
  volunteer: { path: '/volunteer', label: 'Volunteer' },
  home: { path: '/', label: 'Home' },
} as const;
export type LinkPage = keyof typeof LINK_PAGES;

export interface LinkTags {
  refcode: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

const REFCODE = /^[A-Za-z0-9_-]{0,100}$/;
/**
 * A UTM value: letters and digits of any script ("Año Nuevo 2027", "Tết"), their accents, spaces, dots,
 * hyphens and underscores; at most 100 characters. Not symbols, emoji or markup.
 */
const TAG = /^[\p{L}\p{M}\p{N} ._-]{0,100}$/u;

/**
 * A UTM value as it goes into the link: Unicode NFC (an "ñ" typed as n + combining tilde and a
 * precomposed "ñ" become the same campaign in the Donations tab), trimmed, runs of spaces made one.
 * The URL then carries it percent-encoded as UTF-8 (A%C3%B1o+Nuevo+2027), which every browser,
 * QR reader and ActBlue decode back to "Año Nuevo 2027".
 */
export function normaliseTag(value: string): string {
  return value.normalize('NFC').trim().replace(/\s+/g, ' ');
}

/** Field errors for the builder (empty when the link can be built). */
export function linkErrors(tags: LinkTags): Partial<Record<keyof LinkTags, string>> {
  const errors: Partial<Record<keyof LinkTags, string>> = {};
  if (!REFCODE.test(tags.refcode.trim()))
    errors.refcode = 'Use letters, numbers, hyphens or underscores (no spaces)';
  for (const k of ['utmSource', 'utmMedium', 'utmCampaign'] as const)
    if (!TAG.test(normaliseTag(tags[k])))
      errors[k] = 'Use letters (any language), numbers, spaces, dots, hyphens or underscores';
  return errors;
}

export function buildOutreachUrl(site: string, page: LinkPage, tags: LinkTags): string {
  const url = new URL(LINK_PAGES[page].path, site);
  const set = (name: string, value: string) => {
    const v = value.trim();
    if (v) url.searchParams.set(name, v);
  };
  set('refcode', tags.refcode);
  set('utm_source', normaliseTag(tags.utmSource));
  set('utm_medium', normaliseTag(tags.utmMedium));
  set('utm_campaign', normaliseTag(tags.utmCampaign));
  return url.href;
}

/** A file name for the QR downloads, e.g. "qr-donate-yard-sign.svg". */
export function qrFileName(page: LinkPage, refcode: string, ext: 'svg' | 'png'): string {
  const code = refcode
    .trim()
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(0, 60);
  return `qr-${page}${code ? `-${code}` : ''}.${ext}`;
}
