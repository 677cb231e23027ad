import { isAttributionParam } from '../donate.ts';
import { sameSiteReferrer } from './referrer.ts';

/**
 * The visit's attribution: the refcode and UTM tags of the link that brought
 * the visitor, kept in sessionStorage (this tab, this visit) so they still
 * reach the donation form when the visitor lands on the home or volunteer
 * page and clicks through to /donate. The latest tagged landing wins.
 */
export const ATTRIBUTION_KEY = 'campaign.attribution.v1';
const MAX_LENGTH = 1000;

/** Only the attribution parameters of a query string ('' when there are none). */
export function attributionOf(search: string): string {
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(search)) if (isAttributionParam(k) && v) out.set(k, v);
  const s = out.toString();
  return s.length <= MAX_LENGTH ? s : '';
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled
  }
}

/** Remembers this page's attribution, if it has any. */
export function rememberAttribution(search: string, storage?: Storage | null): void {
  const a = attributionOf(search);
  if (!a) return;
  // Opened only when there is something to keep: its first use costs the page script's start.
  const store = storage === undefined ? session() : storage;
  if (!store) return;
  try {
    store.setItem(ATTRIBUTION_KEY, a);
  } catch {
    /* full or disabled */
  }
}

/**
 * The page's own query if it carries attribution, else that of the page the
 * visitor came from on this site (a tagged landing page left before its
 * script had remembered the tags: the page script loads after the first
 * paint), else the visit's remembered one.
 */
export function withAttribution(
  pageSearch: string,
  storage: Storage | null = session(),
  fromSearch: string = sameSiteReferrer()?.search ?? '',
): string {
  if (attributionOf(pageSearch)) return pageSearch;
  let stored: string;
  try {
    stored = storage?.getItem(ATTRIBUTION_KEY) ?? '';
  } catch {
    stored = '';
  }
  const remembered = attributionOf(fromSearch) || attributionOf(stored);
  if (!remembered) return pageSearch;
  const merged = new URLSearchParams(pageSearch);
  for (const [k, v] of new URLSearchParams(remembered)) merged.set(k, v);
  return `?${merged.toString()}`;
}
