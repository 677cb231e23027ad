import { cspDirectives } from '../csp.mjs';
import { FALLBACK_SCRIPT_SRC } from '../page-script-loader.mjs';
import { SECURITY_HEADERS } from './security-headers.ts';

/*
 * The Content-Security-Policy of on-demand responses (src/middleware.ts), kept
 * apart from security-headers.ts, which every API function imports: the page
 * script loader's hash is computed with node:crypto, which the public reads do
 * not load at start-up (docs/decisions/162-public-pages-and-performance.md).
 */

/** The page directives for HTML that Astro did not give a policy (the 404 page): scripts are files, plus the loader. */
function fallbackPageDirectives(env: Record<string, string | undefined>): string[] {
  return [...(cspDirectives(env) as string[]), FALLBACK_SCRIPT_SRC, "style-src 'self' 'unsafe-inline'"];
}

/** The page policy for HTML that Astro did not give one, as a header. */
export function fallbackPagePolicy(env: Record<string, string | undefined>): string {
  return fallbackPageDirectives(env).join('; ');
}

/**
 * Directives a policy in a `<meta http-equiv>` cannot carry: the browser ignores them there and
 * says so in the console (CSP Level 3, "Delivery via meta element").
 */
const HEADER_ONLY_DIRECTIVES = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

/**
 * The same page policy as a `<meta>` (the 404 page, which Netlify serves for unknown paths with the
 * site-wide header rules only): fallbackPagePolicy without what a `<meta>` cannot carry, so the two
 * cannot drift (the analytics origin, once configured, is allowed on the 404 page as everywhere).
 */
export function fallbackMetaPolicy(env: Record<string, string | undefined>): string {
  return fallbackPageDirectives(env)
    .filter((directive) => !HEADER_ONLY_DIRECTIVES.has(directive.split(' ')[0]!))
    .join('; ');
}

/** Feeds, calendars and plain-text answers: nothing may load or frame them. */
export const NON_HTML_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The Content-Security-Policy an on-demand response gets (src/middleware.ts),
 * or null to keep the one it has: ONE complete policy per response. Under the
 * dev server Astro emits no CSP (its inline dev scripts would be blocked), so
 * HTML there only gets the directives that hold everywhere.
 */
export function policyFor(
  contentType: string,
  existing: string | null,
  opts: { dev: boolean; env: Record<string, string | undefined> },
): string | null {
  if (existing) return null;
  if (!/^text\/html\b/i.test(contentType)) return NON_HTML_POLICY;
  return opts.dev ? SECURITY_HEADERS['Content-Security-Policy'] : fallbackPagePolicy(opts.env);
}
