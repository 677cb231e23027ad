import type { Config, Context } from '@netlify/functions';
import { readUpload } from '../../src/lib/server/content/uploads.ts';
import { allowMethods, errorResponse, handle, respond } from '../../src/lib/server/http.ts';

/**
 * Serves an uploaded image. Names are random and never reused (each is
 * created once, onlyIfNew), so the response is immutable: a year's cache, and
 * the name as a strong ETag for the revalidation a browser may still make
 * (304, no body). nosniff and a sandboxing CSP stop any file from being run as
 * a document even if a type check were ever fooled.
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'HEAD');
  const name = context.params?.name ?? '';
  const found = await readUpload(name);
  if (!found) return errorResponse(404, 'Not found');
  const etag = `"${name}"`;
  const cached = (req.headers.get('if-none-match') ?? '')
    .split(',')
    .some((tag) => tag.trim().replace(/^W\//, '') === etag);
  return respond(req.method === 'HEAD' || cached ? null : found.data, {
    status: cached ? 304 : 200,
    type: found.contentType,
    cache: 'public, max-age=31536000, immutable',
    headers: {
      ETag: etag,
      ...(cached ? {} : { 'Content-Length': String(found.data.byteLength) }),
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Content-Disposition': 'inline',
    },
  });
});

export const config: Config = { path: '/api/uploads/:name' };
