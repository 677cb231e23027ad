import type { Context } from '@netlify/functions';
import type { z } from 'zod';
import { ZodError } from 'zod';
import { ConfigError, env } from './env.ts';
import { ConflictError, StoreUnavailableError } from './store.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

/** An error with an HTTP status and a message safe to show a person. */
export class HttpError extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a minute.';

/** Headers on every API response: the site-wide set, and a CSP that lets a JSON answer do nothing. */
const API_HEADERS: Record<string, string> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

export interface JsonInit {
  status?: number;
  headers?: Record<string, string>;
  /** Public, cacheable data (e.g. the news list). Default: no-store. */
  cache?: string;
}

export function json(data: unknown, init: JsonInit = {}): Response {
  return new Response(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': init.cache ?? 'no-store',
      ...API_HEADERS,
      ...init.headers,
    },
  });
}

export function errorResponse(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return json({ error: message, ...extra }, { status, headers });
}

/** Turns a zod error into the first message plus a field map. */
export function zodToHttp(err: ZodError): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of err.issues) {
    const path = issue.path.join('.') || '_';
    if (!(path in fields))
      fields[path] =
        issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : issue.message;
  }
  const first = err.issues[0];
  let message = first?.message ?? 'Invalid input';
  if (first?.code === 'unrecognized_keys') message = `Unknown field: ${first.keys.join(', ')}`;
  else if (first?.code === 'invalid_type' && first.path.length > 0 && /expected/i.test(first.message)) {
    message = `Invalid value for ${first.path.join('.')}`;
  }
  return new HttpError(400, message, { fields });
}

type Handler = (req: Request, context: Context) => Promise<Response>;

// Shared by every function's module instance in the dev server's one process,
// so concurrent first requests to different endpoints seed once.
const SEEDING = Symbol.for('campaign.devSeed');
const seedState = ((globalThis as Record<symbol, unknown>)[SEEDING] ??= { promise: null }) as {
  promise: Promise<void> | null;
};

/**
 * Local mode (`npm run dev`) seeds demo content on the first request of each
 * process. Imported lazily so production bundles never load the seed; a
 * failure is logged and retried on the next request, never served as an error.
 */
async function devSeed(): Promise<void> {
  let development: boolean;
  try {
    development = env().APP_ENV === 'development';
  } catch {
    return; // an invalid environment is reported by the handler itself
  }
  if (!development) return;
  seedState.promise ??= import('./seed.ts')
    .then((m) => m.ensureSeeded())
    .catch((err: unknown) => {
      seedState.promise = null;
      console.error('[seed] local seed failed; will retry on the next request', err);
    });
  await seedState.promise;
}

/**
 * Wraps an endpoint: known errors become JSON with the right status; store and
 * configuration faults become 503; anything else is a 500 with no internals.
 */
export function handle(fn: Handler): Handler {
  return async (req, context) => {
    try {
      await devSeed();
      return await fn(req, context);
    } catch (err) {
      if (err instanceof HttpError) return errorResponse(err.status, err.message, err.extra, err.headers);
      if (err instanceof ZodError) {
        const h = zodToHttp(err);
        return errorResponse(h.status, h.message, h.extra);
      }
      if (err instanceof ConflictError) return errorResponse(409, err.message);
      if (err instanceof StoreUnavailableError || err instanceof ConfigError) {
        console.error(`[${new URL(req.url).pathname}] ${err.name}: ${err.message}`, err.cause ?? '');
        return errorResponse(503, UNAVAILABLE_MESSAGE, {}, { 'Retry-After': '30' });
      }
      console.error(`[${new URL(req.url).pathname}] unexpected error`, err);
      return errorResponse(500, 'Something went wrong. Please try again.');
    }
  };
}

/** 405 with an Allow header unless the method is one of `allowed`. */
export function allowMethods(req: Request, ...allowed: string[]): void {
  if (!allowed.includes(req.method)) {
    throw new HttpError(405, 'Method not allowed', {}, { Allow: allowed.join(', ') });
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for state-changing requests: a cross-site Origin or
 * Sec-Fetch-Site is refused. Browsers always send one of them on POST/PUT/
 * DELETE; server-to-server callers (webhooks) use their own endpoint.
 */
export function requireSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none')
    throw new HttpError(403, 'Cross-site request refused');
  const origin = req.headers.get('origin');
  if (origin) {
    const allowed = new Set([new URL(req.url).origin, new URL(env().SITE_URL).origin]);
    if (!allowed.has(origin)) throw new HttpError(403, 'Cross-site request refused');
  }
}

export const DEFAULT_MAX_BODY = 64 * 1024;

/** Reads a JSON body: JSON content type (415), size cap (413), valid JSON (400), then the schema. */
export async function readJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  maxBytes = DEFAULT_MAX_BODY,
): Promise<z.output<S>> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) throw new HttpError(415, 'Content-Type must be application/json');
  const text = await readText(req, maxBytes);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw zodToHttp(parsed.error);
  return parsed.data;
}

/** Reads the body as text, refusing more than maxBytes (413) even without a Content-Length. */
export async function readText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new HttpError(413, 'Request body is too large');
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new HttpError(413, 'Request body is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The platform's client IP, never a client-sent X-Forwarded-For. */
export function clientIp(context: Pick<Context, 'ip'>): string {
  return context.ip || 'unknown';
}

/** A positive integer id from the route params (404 when malformed). */
export function idFrom(context: Pick<Context, 'params'>, name = 'id'): number {
  const raw = context.params?.[name];
  const n = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new HttpError(404, 'Not found');
  return n;
}

/** Cookies of the request. */
export function readCookies(req: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const raw = part.slice(i + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A malformed escape (e.g. a lone '%') is kept as sent: it will simply not verify.
    }
    out.set(part.slice(0, i).trim(), value);
  }
  return out;
}

export function withHeaders(res: Response, headers: Record<string, string | string[]>): Response {
  for (const [k, v] of Object.entries(headers)) {
    if (Array.isArray(v)) for (const x of v) res.headers.append(k, x);
    else res.headers.set(k, v);
  }
  return res;
}
