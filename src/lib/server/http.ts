import type { Context } from '@netlify/functions';
import type { z } from 'zod';
import { appSettings, ConfigError } from './app-env.ts';
import { HttpError, isZodError, UNAVAILABLE_MESSAGE, zodToHttp } from './errors.ts';
import { ConflictError } from './storage/compare-and-set.ts';
import { StoreUnavailableError } from './storage/kv.ts';
import { SECURITY_HEADERS } from './security-headers.ts';
import { browserFormPost, formPostLocation, isFormBody, rememberRefill } from './form-post.ts';
import { formFieldsToInput, type PublicFormId } from '../schemas/public-forms.ts';

/**
 * The request layer shared by every function: one response helper (every
 * answer, JSON or not, carries the shared security headers), the error
 * mapping, method/CSRF guards and the capped body reader.
 */

/** Headers on every API response: the site-wide set, and a CSP that lets a JSON answer do nothing. */
const API_HEADERS: Record<string, string> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

export interface RespondInit {
  status?: number;
  /** Content-Type of the body (JSON helpers set it). */
  type?: string;
  headers?: Record<string, string>;
  /** Cache-Control. Default: no-store (admin and API data is never cached by a browser). */
  cache?: string;
}

/**
 * The one way a function builds a response: JSON, CSV, TwiML and image bytes
 * alike get the shared security headers (SECURITY.md, "Headers"); `headers`
 * may tighten them (an upload's sandbox CSP) but never drop one.
 */
export function respond(body: BodyInit | null, init: RespondInit = {}): Response {
  const headers: Record<string, string> = {
    'Cache-Control': init.cache ?? 'no-store',
    ...API_HEADERS,
    ...init.headers,
  };
  if (init.type) headers['Content-Type'] = init.type;
  return new Response(body, { status: init.status ?? 200, headers });
}

export type JsonInit = Omit<RespondInit, 'type'>;

export function json(data: unknown, init: JsonInit = {}): Response {
  return respond(JSON.stringify(data), { ...init, type: 'application/json; charset=utf-8' });
}

/** A file download (CSV exports): an attachment that is never cached, with a plain file name. */
export function download(body: string, filename: string, type: string): Response {
  return respond(body, {
    type,
    headers: { 'Content-Disposition': `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '-')}"` },
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

type Handler = (req: Request, context: Context) => Promise<Response>;

/**
 * Wraps an endpoint: known errors become JSON with the right status; store and
 * configuration faults become 503; anything else is a 500 with no internals.
 * A browser form post to a public form endpoint (form-post.ts) gets none of
 * these as a body: whatever the endpoint answered becomes a 303 to the form's
 * outcome page.
 */
export function handle(fn: Handler): Handler {
  return async (req, context) => {
    const form = browserFormPost(req);
    const res = await answer(fn, req, context);
    if (!form) return res;
    return respond(null, { status: 303, headers: { Location: await formPostLocation(req, form, res) } });
  };
}

async function answer(fn: Handler, req: Request, context: Context): Promise<Response> {
  try {
    return await fn(req, context);
  } catch (err) {
    if (err instanceof HttpError) return errorResponse(err.status, err.message, err.extra, err.headers);
    if (isZodError(err)) {
      const h = zodToHttp(err);
      return errorResponse(h.status, h.message, h.extra);
    }
    if (err instanceof ConflictError)
      return errorResponse(409, err.message, {}, err.retryable ? { 'Retry-After': '1' } : {});
    if (err instanceof StoreUnavailableError || err instanceof ConfigError) {
      console.error(`[${new URL(req.url).pathname}] ${err.name}: ${err.message}`, err.cause ?? '');
      return errorResponse(503, UNAVAILABLE_MESSAGE, {}, { 'Retry-After': '30' });
    }
    console.error(`[${new URL(req.url).pathname}] unexpected error`, err);
    return errorResponse(500, 'Something went wrong. Please try again.');
  }
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
 *
 * A JSON body is itself a proof of sorts (another site cannot send one without
 * a CORS preflight, which we never grant). A form post is not: any page can
 * submit an HTML form here. So a form-encoded body must carry the positive
 * proof: `Sec-Fetch-Site: same-origin`, or, from a browser that does not send
 * that header, a same-origin `Origin`. Neither header, `none` or a lone `null`: refused.
 */
export function requireSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const refused = () => new HttpError(403, 'Cross-site request refused');
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') throw refused();
  // The browser's own word, which no page can forge. (A page served with
  // Referrer-Policy: no-referrer sends `Origin: null` even to its own site.)
  if (site === 'same-origin') return;
  const origin = req.headers.get('origin');
  const allowed = new Set([new URL(req.url).origin, new URL(appSettings().SITE_URL).origin]);
  if (origin && !allowed.has(origin)) throw refused();
  if (isFormBody(req) && site !== 'same-origin' && !(site === null && origin && allowed.has(origin)))
    throw refused();
}

export const DEFAULT_MAX_BODY = 64 * 1024;
const JSON_TYPE = /^application\/json\b/i;

/** Reads a JSON body: JSON content type (415), size cap (413), valid JSON (400), then the schema. */
export async function readJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  maxBytes = DEFAULT_MAX_BODY,
): Promise<z.output<S>> {
  const type = req.headers.get('content-type') ?? '';
  if (!JSON_TYPE.test(type)) throw new HttpError(415, 'Content-Type must be application/json');
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

/**
 * The body of a public form endpoint: JSON from the islands, or a browser form
 * post (urlencoded, see form-post.ts) whose fields become the same JSON object
 * (`formFieldsToInput`, shared with the islands). Either way the same schema
 * parses it; the CSRF check is the endpoint's `requireSameOrigin`, which asks a
 * form post for positive same-origin proof.
 */
export async function readInput<S extends z.ZodType>(
  req: Request,
  form: PublicFormId,
  schema: S,
  maxBytes = DEFAULT_MAX_BODY,
): Promise<z.output<S>> {
  if (!isFormBody(req)) return readJson(req, schema, maxBytes);
  const text = await readText(req, maxBytes);
  const input = formFieldsToInput(form, new URLSearchParams(text));
  rememberRefill(req, form, input);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw zodToHttp(parsed.error);
  return parsed.data;
}

/**
 * The one capped body reader: refuses more than maxBytes (413) even without a
 * Content-Length, without buffering past the cap. `tooLarge` lets an endpoint
 * word the refusal (uploads answer in their own envelope).
 */
export async function readBody(
  req: Request,
  maxBytes: number,
  tooLarge: () => Error = () => new HttpError(413, 'Request body is too large'),
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The body as UTF-8 text, capped like readBody. */
export async function readText(req: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBody(req, maxBytes));
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
