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
const TAG = /^[A-Za-z0-9 ._-]{0,100}$/;

/** Field errors for the builder (empty when the link can be built). */
export function linkErrors(tags: LinkTags): Partial<Record<keyof LinkTags, string>> {
  const errors: Partial<Record<keyof LinkTags, string>> = {};
  if (!REFCODE.test(tags.refcode.trim()))
    errors.refcode = 'Use letters, numbers, hyphens or underscores (no spaces)';
  for (const k of ['utmSource', 'utmMedium', 'utmCampaign'] as const)
    if (!TAG.test(tags[k].trim())) errors[k] = 'Use letters, numbers, spaces, dots, hyphens or underscores';
  return errors;
}

export function buildOutreachUrl(site: string, page: LinkPage, tags: LinkTags): string {
  const url = new URL(LINK_PAGES[page].path, site);
  const set = (name: string, value: string) => {
    const v = value.trim();
    if (v) url.searchParams.set(name, v);
  };
  set('refcode', tags.refcode);
  set('utm_source', tags.utmSource);
  set('utm_medium', tags.utmMedium);
  set('utm_campaign', tags.utmCampaign);
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
