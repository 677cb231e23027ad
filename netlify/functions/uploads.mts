import type { Config, Context } from '@netlify/functions';
import { readUpload } from '../../src/lib/server/content/uploads.ts';
import { allowMethods, errorResponse, handle, respond } from '../../src/lib/server/http.ts';

/**
 * Serves an uploaded image. Names are random and never reused, so the
 * response is immutable; nosniff and a sandboxing CSP stop any file from
 * being run as a document even if a type check were ever fooled.
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'HEAD');
  const found = await readUpload(context.params?.name ?? '');
  if (!found) return errorResponse(404, 'Not found');
  return respond(req.method === 'HEAD' ? null : found.data, {
    type: found.contentType,
    cache: 'public, max-age=31536000, immutable',
    headers: {
      'Content-Length': String(found.data.byteLength),
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Content-Disposition': 'inline',
    },
  });
});

export const config: Config = { path: '/api/uploads/:name' };
