import type { Config, Context } from '@netlify/functions';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { inboxKindOf } from '../../src/lib/inbox-routes.ts';
import { inboxCsv, inboxPage, parseInboxQuery } from '../../src/lib/server/forms/inbox.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, download, handle, json } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/** GET the staff inbox lists (admin, editor): JSON pages or ?format=csv. */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET');
  const user = await requireUser(req, { permission: 'edit_content' });
  const url = new URL(req.url);
  const kind = inboxKindOf(url.pathname);
  if (!kind) throw new HttpError(404, 'Not found');
  const query = parseInboxQuery(url);
  if (url.searchParams.get('format') === 'csv') {
    const { filename, body } = await inboxCsv(kind, query.q);
    await audit(
      context,
      user,
      'inbox.export',
      { type: 'inbox', id: kind, label: kind },
      query.q ? { search: query.q } : {},
    );
    return download(body, filename, 'text/csv; charset=utf-8');
  }
  return json(await inboxPage(kind, query));
});

/** INBOX_ROUTES' paths, written out: Netlify reads this from the source (tests/unit/inbox-routes.test.ts). */
export const config: Config = {
  path: [
    '/api/admin/volunteers',
    '/api/admin/contacts',
    '/api/admin/text-signups',
    '/api/admin/email-subscribers',
  ],
};
