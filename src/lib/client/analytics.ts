/**
 * Page views (spec section 1): the path of every page load or client-side
 * navigation goes to a Plausible-compatible events endpoint
 * (PUBLIC_ANALYTICS_URL, e.g. https://plausible.io/api/event) with
 * navigator.sendBeacon. Nothing configured: nothing is sent, one console.debug line.
 */

export interface PageviewConfig {
  /** Events endpoint; empty disables analytics. */
  endpoint?: string | undefined;
  /** Site name the provider knows ("domain" in Plausible); defaults to the page's host. */
  domain?: string | undefined;
}

export function pageviewPayload(href: string, referrer: string, domain: string) {
  const url = new URL(href);
  // Never report query strings: reset tokens and personal data can travel there.
  return { name: 'pageview', url: `${url.origin}${url.pathname}`, domain, referrer: referrer || null };
}

let lastPath: string | null = null;

/** Records one page view per distinct path; returns whether something was sent. */
export function trackPageview(config: PageviewConfig = {}): boolean {
  const path = location.pathname;
  if (path === lastPath) return false;
  lastPath = path;
  const endpoint = config.endpoint?.trim();
  if (!endpoint) {
    console.debug(`[analytics] no provider configured; page view of ${path} not sent`);
    return false;
  }
  try {
    const body = JSON.stringify(
      pageviewPayload(location.href, document.referrer, config.domain || location.hostname),
    );
    // text/plain keeps the beacon a "simple" request (no CORS preflight), as Plausible's own script does.
    if (navigator.sendBeacon?.(endpoint, new Blob([body], { type: 'text/plain' }))) return true;
    void fetch(endpoint, {
      method: 'POST',
      body,
      keepalive: true,
      headers: { 'Content-Type': 'text/plain' },
    }).catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

/** Page view now, and on every client-side navigation (Astro's router or history changes). */
export function startAnalytics(config: PageviewConfig): void {
  const track = () => trackPageview(config);
  track();
  document.addEventListener('astro:page-load', track);
  window.addEventListener('popstate', track);
}
