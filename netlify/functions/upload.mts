import type { Config, Context } from '@netlify/functions';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { saveUpload } from '../../src/lib/server/content/uploads.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/** Image upload for articles (editor or admin). Answers { success, imageUrl } or { success: false, error }. */
export default handle(async (req: Request, context: Context) => {
  try {
    allowMethods(req, 'POST');
    const user = await requireUser(req, { permission: 'edit_content' });
    const { name } = await saveUpload(req);
    // Every staff write is audited (docs/decisions/154-audit-trail.md).
    await audit(context, user, 'upload.create', { type: 'upload', id: name, label: name });
    return json({ success: true, imageUrl: `/api/uploads/${name}` }, { status: 201 });
  } catch (err) {
    if (err instanceof HttpError && err.extra.success === undefined) {
      throw new HttpError(err.status, err.message, { ...err.extra, success: false }, err.headers);
    }
    throw err;
  }
});

export const config: Config = { path: '/api/upload' };
