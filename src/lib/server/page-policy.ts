import { cspDirectives } from '../csp.mjs';
import { FALLBACK_SCRIPT_SRC } from '../page-script-loader.mjs';
import { SECURITY_HEADERS } from './security-headers.ts';

/*
 * The Content-Security-Policy of on-demand responses (src/middleware.ts), kept
 * apart from security-headers.ts, which every API function imports: the page
 * script loader's hash is computed with node:crypto, which the public reads do
 * not load at start-up (issue 14).
 */

/** The page policy for HTML that Astro did not give one (the 404 page): its scripts are files, plus the loader. */
export function fallbackPagePolicy(env: Record<string, string | undefined>): string {
  return [...(cspDirectives(env) as string[]), FALLBACK_SCRIPT_SRC, "style-src 'self' 'unsafe-inline'"].join(
    '; ',
  );
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
