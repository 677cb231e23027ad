import type { ZodError } from 'zod';

/**
 * Errors a request can end with, and how they map to HTTP. Kept apart from
 * http.ts so domain modules (content, auth, forms) can throw them without
 * importing the request layer.
 */

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

/**
 * A zod validation error, recognised by shape rather than `instanceof`, so the
 * request layer does not load zod: functions that parse no input (the public
 * reads) start without it.
 */
export function isZodError(err: unknown): err is ZodError {
  return (
    err instanceof Error && err.name === 'ZodError' && Array.isArray((err as { issues?: unknown }).issues)
  );
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
