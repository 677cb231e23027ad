/**
 * How Netlify routes a request to a function by its in-source `config`
 * (`path`, `excludedPath`, `method`): URLPattern path expressions, a trailing
 * slash ignored. One implementation for the dev server (functions-in-process)
 * and for the API tests' `call()` helper, so both route as the platform does.
 */

/** The part of a function module's `config` that decides routing. */
export interface RouteConfig {
  path?: string | string[];
  excludedPath?: string | string[];
  method?: string | string[];
  /** A background function: answered 202 at once, run after (docs/decisions/156-exports.md). */
  background?: boolean;
}

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

const patterns = new Map<string, URLPattern>();
function pattern(path: string): URLPattern {
  let p = patterns.get(path);
  if (!p) {
    p = new URLPattern({ pathname: path });
    patterns.set(path, p);
  }
  return p;
}

/**
 * The route params when `config` serves `pathname` for `method`, else null.
 * Like the platform, a trailing slash is ignored and an excluded path never matches.
 */
export function matchRoute(
  config: RouteConfig,
  pathname: string,
  method = 'GET',
): Record<string, string> | null {
  const methods = list(config.method).map((m) => m.toUpperCase());
  if (methods.length > 0 && !methods.includes(method.toUpperCase())) return null;
  const path = pathname !== '/' && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (list(config.excludedPath).some((p) => pattern(p).test({ pathname: path }))) return null;
  for (const p of list(config.path)) {
    const m = pattern(p).exec({ pathname: path });
    if (m) {
      return Object.fromEntries(
        Object.entries(m.pathname.groups).filter((e): e is [string, string] => e[1] !== undefined),
      );
    }
  }
  return null;
}
