// @ts-check
/**
 * The Content-Security-Policy, built from the deploy's configuration at build
 * time (astro.config.mjs) and asserted by tests. script-src and style-src are
 * completed by Astro with hashes of its own scripts.
 */

export const VIDEO_ORIGIN = 'https://www.youtube-nocookie.com';
export const CAPTCHA_ORIGIN = 'https://challenges.cloudflare.com';

/** @type {import('astro').CspResourceEntry[] | any} */
export const CSP_SCRIPT_RESOURCES = ["'self'", CAPTCHA_ORIGIN];

/** @param {string | undefined} url */
function originOf(url) {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/**
 * @param {Record<string, string | undefined>} env
 * @returns {any[]}
 */
export function cspDirectives(env) {
  // The English and the Spanish donation forms (docs/decisions/166-spanish.md) may be on different origins.
  const donation = [...new Set([originOf(env.PUBLIC_DONATION_URL), originOf(env.PUBLIC_DONATION_URL_ES)])]
    .filter(Boolean)
    .join(' ');
  const analytics = originOf(env.PUBLIC_ANALYTICS_URL);
  return [
    "default-src 'self'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    `connect-src 'self' ${CAPTCHA_ORIGIN}${analytics ? ` ${analytics}` : ''}`,
    `frame-src ${VIDEO_ORIGIN} ${CAPTCHA_ORIGIN}${donation ? ` ${donation}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'none'",
  ];
}
