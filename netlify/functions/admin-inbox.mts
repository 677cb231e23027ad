import type { Config, Context } from '@netlify/functions';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import {
  inboxCsv,
  inboxPage,
  parseInboxQuery,
  type InboxKindName,
} from '../../src/lib/server/forms/inbox.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { allowMethods, handle, HttpError, json } from '../../src/lib/server/http.ts';

const KINDS: Record<string, InboxKindName> = {
  '/api/admin/volunteers': 'volunteers',
  '/api/admin/contacts': 'contacts',
  '/api/admin/text-signups': 'text-signups',
};

/** GET the staff inbox lists (admin, editor): JSON pages or ?format=csv. */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET');
  const user = await requireUser(req, { permission: 'edit_content' });
  const url = new URL(req.url);
  const kind = KINDS[url.pathname.replace(/\/$/, '')];
  if (!kind) throw new HttpError(404, 'Not found');
  const query = parseInboxQuery(url.searchParams);
  if (url.searchParams.get('format') === 'csv') {
    const { filename, body } = await inboxCsv(kind, query.q);
    await audit(
      context,
      user,
      'inbox.export',
      { type: 'inbox', id: kind, label: kind },
      query.q ? { search: query.q } : {},
    );
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  return json(await inboxPage(kind, query));
});

export const config: Config = {
  path: ['/api/admin/volunteers', '/api/admin/contacts', '/api/admin/text-signups'],
};
