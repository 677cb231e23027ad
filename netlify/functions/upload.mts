import type { Config } from '@netlify/functions';
import { saveUpload } from '../../src/lib/server/content/uploads.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/** Image upload for articles (editor or admin). Answers { success, imageUrl } or { success: false, error }. */
export default handle(async (req) => {
  try {
    allowMethods(req, 'POST');
    await requireUser(req, { permission: 'edit_content' });
    const { name } = await saveUpload(req);
    return json({ success: true, imageUrl: `/api/uploads/${name}` }, { status: 201 });
  } catch (err) {
    if (err instanceof HttpError && err.extra.success === undefined) {
      throw new HttpError(err.status, err.message, { ...err.extra, success: false }, err.headers);
    }
    throw err;
  }
});

export const config: Config = { path: '/api/upload' };
