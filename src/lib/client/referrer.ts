/**
 * The page of this site the visitor came from, or null (another site, none,
 * or hidden by a Referrer-Policy). Same-origin navigations carry the whole URL
 * (strict-origin-when-cross-origin), so a page's script can still learn what
 * the visitor did on the previous page before that page's own script had run
 * (it loads after the first paint: src/lib/page-script-loader.mjs).
 */
export function sameSiteReferrer(): URL | null {
  if (!document.referrer) return null; // the common case, without throwing (the page script's start is timed)
  try {
    const from = new URL(document.referrer);
    return from.origin === location.origin ? from : null;
  } catch {
    return null;
  }
}
