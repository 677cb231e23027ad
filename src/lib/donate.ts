import { INVITE_REFCODE_PARAM, inviteRefcode, isInviteCode } from './invite-link.ts';

/**
 * The embedded donation form's address. The provider (ActBlue-style) reads the
 * amount from a query parameter; `refcode` and `utm_*` from the page URL are
 * carried over so the campaign can attribute gifts to the link that brought them.
 */

export const DONATION_PRESETS = [25, 50, 100, 250, 500, 1000] as const;

const PASSTHROUGH = /^(refcode|utm_[a-z0-9_]+)$/i;
const MAX_VALUE_LENGTH = 200;

/** The query parameters that attribute a gift: refcode and utm_* (one rule for the frame URL and the visit memory). */
export function isAttributionParam(name: string): boolean {
  return PASSTHROUGH.test(name);
}

export interface DonationUrlOptions {
  /** The provider form URL (PUBLIC_DONATION_URL). */
  baseUrl: string | undefined | null;
  /** Whole dollars, or null for "let the donor choose". */
  amount: number | null;
  /** The donate page's query string (location.search), for refcode and utm_* passthrough. */
  pageSearch?: string;
  /** The provider's amount parameter name (PUBLIC_DONATION_AMOUNT_PARAM, default "amount"). */
  amountParam?: string;
  /** The visitor's invite code (the invite cookie), carried as its refcode so the gift credits the link's owner. */
  inviteCode?: string | null;
}

/** The frame URL, or null when no (valid http/https) provider URL is configured. */
export function buildDonationUrl({
  baseUrl,
  amount,
  pageSearch = '',
  amountParam,
  inviteCode,
}: DonationUrlOptions): string | null {
  if (!baseUrl) return null;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const param = amountParam?.trim() || 'amount';
  const page = new URLSearchParams(pageSearch);
  for (const [key, value] of page) {
    if (!PASSTHROUGH.test(key) || value.length > MAX_VALUE_LENGTH) continue;
    url.searchParams.set(key, value);
    // ActBlue reports only refcode* parameters back in its webhook (contribution.refcodes),
    // so each UTM tag also travels as refcode_utm_<name> (docs/decisions/165-donations.md).
    if (/^utm_/i.test(key) && !page.has(`refcode_${key}`))
      url.searchParams.set(`refcode_${key.toLowerCase()}`, value);
  }
  if (inviteCode && isInviteCode(inviteCode))
    url.searchParams.set(INVITE_REFCODE_PARAM, inviteRefcode(inviteCode));
  if (amount !== null && Number.isFinite(amount) && amount > 0) {
    url.searchParams.set(param, String(Math.round(amount)));
  } else {
    url.searchParams.delete(param);
  }
  return url.href;
}
