import type { Config, Context } from '@netlify/functions';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { inboxKindOf } from '../../src/lib/inbox-kinds.ts';
import { inboxPage, parseInboxQuery } from '../../src/lib/server/inbox/lists.ts';
import { directExport } from '../../src/lib/server/exports/exports.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/**
 * GET the staff inbox lists (admin, editor): JSON pages (?page, ?pageSize, ?q, ?lang, ?status) from
 * the lists' summary indexes, or ?format=csv: the file itself up to EXPORT_LIMITS.directRows
 * rows, else 413 pointing at the background export (docs/decisions/156-exports.md). A GET writes
 * nothing: a list whose index is lost is read from its records until the scheduled compaction or `npm run reindex`
 * stores it again (docs/decisions/155-inbox-and-staff-lists.md, "Reads that read").
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET');
  const user = await requireUser(req, { permission: 'edit_content' });
  const url = new URL(req.url);
  const kind = inboxKindOf(url.pathname);
  if (!kind) throw new HttpError(404, 'Not found');
  const query = parseInboxQuery(url);
  if (url.searchParams.get('format') === 'csv')
    return directExport(user, context, 'inbox', {
      kind,
      q: query.q,
      ...(query.lang ? { lang: query.lang } : {}),
      ...(query.status ? { status: query.status } : {}),
    });
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
