import type { Context } from '@netlify/functions';
import { matchRoute } from '../../scripts/dev/function-routes.mts';

export const ORIGIN = 'http://localhost:4321';

export interface FunctionModule {
  default: (req: Request, context: Context) => Promise<Response>;
  // Matches @netlify/functions' Config, whose path is optional in the type.
  config: { path?: string | string[]; excludedPath?: string | string[]; method?: string | string[] };
}

export interface CallOptions {
  method?: string;
  /** JSON body (sets Content-Type: application/json). */
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  cookie?: string;
  ip?: string;
  /** Omit the same-origin headers a browser would send. */
  crossSite?: boolean;
  /** The platform's `context.waitUntil` (work after the response); absent by default. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/**
 * Calls a function module the way Netlify would: builds a real Request, finds
 * the route params by matching the module's own config.path, and passes a
 * context with the platform IP.
 */
export async function call(mod: FunctionModule, path: string, opts: CallOptions = {}): Promise<Response> {
  const url = new URL(path, ORIGIN);
  const paths = Array.isArray(mod.config.path) ? mod.config.path : mod.config.path ? [mod.config.path] : [];
  // Routed as the platform and the dev server route (a trailing slash ignored); the method is the handler's to refuse.
  const params =
    matchRoute({ path: mod.config.path, excludedPath: mod.config.excludedPath }, url.pathname) ?? undefined;
  if (!params) throw new Error(`${url.pathname} does not match ${paths.join(', ')}`);
  const method = opts.method ?? (opts.json !== undefined || opts.body !== undefined ? 'POST' : 'GET');
  const headers = new Headers(opts.headers);
  if (opts.json !== undefined) headers.set('content-type', 'application/json');
  if (opts.cookie) headers.set('cookie', opts.cookie);
  if (!opts.crossSite && method !== 'GET' && method !== 'HEAD') {
    headers.set('origin', ORIGIN);
    headers.set('sec-fetch-site', 'same-origin');
  }
  const req = new Request(url, {
    method,
    headers,
    body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.body,
  });
  const context = {
    ip: opts.ip ?? '203.0.113.10',
    params,
    cookies: undefined,
    ...(opts.waitUntil ? { waitUntil: opts.waitUntil } : {}),
  } as unknown as Context;
  return mod.default(req, context);
}

/** The session cookie pair ("name=value") from a response's Set-Cookie, for the next call. */
export function sessionCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.includes('session='));
  if (!set) throw new Error('no session cookie set');
  return set.split(';')[0]!;
}

/**
 * `call` with the platform's `context.waitUntil`: the answer, its body (read first), then the work the handler left
 * for after the response, awaited; `deferred` is how many pieces of such work it left.
 */
export async function callThenDeferred(
  mod: FunctionModule,
  path: string,
  opts: Omit<CallOptions, 'waitUntil'> = {},
): Promise<{ res: Response; body: string; deferred: number }> {
  const deferred: Promise<unknown>[] = [];
  const res = await call(mod, path, { ...opts, waitUntil: (p) => deferred.push(p) });
  const body = await res.text();
  await Promise.all(deferred);
  return { res, body, deferred: deferred.length };
}
