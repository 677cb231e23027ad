/**
 * The browser's one way to call the API (spec section 7): credentials always
 * included, a JSON body only when given, responses parsed as JSON, and any
 * non-success status raised as an ApiError whose message is
 * "<status>: <body text or status text>" (spec section 8).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, body: string, statusText: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The server's `{ error }` message when the body is JSON, else null. */
  get serverMessage(): string | null {
    try {
      const parsed = JSON.parse(this.body) as { error?: unknown };
      return typeof parsed.error === 'string' ? parsed.error : null;
    } catch {
      return null;
    }
  }

  /** The field map of a 400 answer, if any. */
  get fields(): Record<string, string> {
    try {
      const parsed = JSON.parse(this.body) as { fields?: Record<string, string> };
      return parsed.fields ?? {};
    } catch {
      return {};
    }
  }
}

export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  data?: unknown,
  init: RequestInit = {},
): Promise<T> {
  const headers = new Headers(init.headers);
  let body: BodyInit | undefined;
  if (data instanceof FormData) body = data;
  else if (data !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(data);
  }
  const res = await fetch(url, { ...init, method, headers, body, credentials: 'include' });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiError(res.status, text, res.statusText);
  }
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** SWR fetcher: the key parts joined with '/' (spec section 7, default queries). */
export function queryFetcher<T>(key: string | readonly string[]): Promise<T> {
  const url = Array.isArray(key) ? key.join('/') : (key as string);
  return apiRequest<T>('GET', url);
}

/**
 * What a person reads for a failed call where the spec shows "the error
 * message or <fallback>" (the login failure, 'Failed to create article'): the
 * server's `{ error }` message when the body is JSON ("Invalid credentials",
 * never `401: {"error":"Invalid credentials"}`), else the thrown error's own
 * "<status>: <body text>" (spec section 8; ApiError.message keeps that format),
 * or the fallback when the call never got an answer (a network failure).
 */
export function errorMessageOf(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError)) return fallback;
  return err.serverMessage || err.message;
}

/** The server's message for a failure, or a fallback. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  return fallback;
}
