import type { Config, Context } from '@netlify/functions';
import { HistoryKindSchema } from '../../src/lib/schemas/history.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { listTrash, restoreFromTrash } from '../../src/lib/server/content/history.ts';
import { allowMethods, handle, idFrom, json } from '../../src/lib/server/http.ts';
import { pageQuery } from '../../src/lib/server/pagination.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/**
 * The Trash (docs/decisions/161-content-and-editor.md): deleted articles and events, restorable for 30 days, by the editors and admins
 * who may edit them (docs/decisions/161-content-and-editor.md; viewers never).
 * - GET  /api/admin/trash?page&pageSize   newest deletion first (docs/decisions/155-inbox-and-staff-lists.md)
 * - POST /api/admin/trash/:kind/:id/restore   (kind: article | event)
 */
export default handle(async (req: Request, context: Context) => {
  const restoring = context.params?.id !== undefined;
  allowMethods(req, restoring ? 'POST' : 'GET');
  const staff = await requireUser(req, { permission: 'edit_content' });
  if (!restoring) return json(await listTrash(new Date(), pageQuery(new URL(req.url))));
  const kind = HistoryKindSchema.safeParse(context.params?.kind);
  if (!kind.success) throw new HttpError(404, 'Not found');
  const record = await restoreFromTrash(kind.data, idFrom(context), staff);
  if (kind.data === 'article') {
    await audit(context, staff, 'article.restore', target.article(record), { from: 'Trash' });
    await purgeTags(CACHE_TAGS.news);
    return json({ article: record });
  }
  await audit(context, staff, 'event.restore', target.event(record), { from: 'Trash' });
  await purgeTags(CACHE_TAGS.events);
  return json({ event: record });
});

export const config: Config = { path: ['/api/admin/trash', '/api/admin/trash/:kind/:id/restore'] };
