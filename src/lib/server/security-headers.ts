/**
 * The security headers every response carries (SECURITY.md, "Headers"). Static
 * files get them from netlify.toml (a test holds the two equal); on-demand
 * pages from src/middleware.ts; API responses from src/lib/server/http.ts.
 * The full Content-Security-Policy of a page (with Astro's script hashes) is
 * built at build time (astro.config.mjs, src/lib/csp.mjs); the policy here only
 * adds what must hold everywhere, and is enforced alongside it.
 */
export const SECURITY_HEADERS = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy':
    'camera=(), microphone=(), geolocation=(), usb=(), browsing-topics=(), autoplay=(self "https://www.youtube-nocookie.com"), fullscreen=(self "https://www.youtube-nocookie.com")',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
} as const;

/**
 * Paths whose URL carries a secret (the reset token, the RSVP cancellation token, the newsletter's
 * confirmation token): never sent on in a Referer.
 */
export const NO_REFERRER_PATHS = [
  '/reset-password',
  '/rsvp/cancel',
  '/es/rsvp/cancel',
  '/newsletter/confirm',
  '/es/newsletter/confirm',
  '/unsubscribe',
  '/es/unsubscribe',
];

const ISLAND_STYLE = /<style>astro-island,astro-slot,astro-static-slot\{display:contents\}<\/style>/g;

/** The page with Astro's island <style> (emitted in the body) moved once into the <head>. */
export function hoistIslandStyles(html: string): string {
  const head = html.indexOf('</head>');
  const tag = ISLAND_STYLE.exec(html.slice(head))?.[0];
  ISLAND_STYLE.lastIndex = 0;
  if (head < 0 || !tag) return html;
  const body = html.slice(head).replace(ISLAND_STYLE, '');
  return `${html.slice(0, head)}${tag}${body}`;
}
