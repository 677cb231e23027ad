import type { Config, Context } from '@netlify/functions';
import type { HistoryKind } from '../../src/lib/schemas/history.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { articleSaveKind, audit, eventSaveKind, target } from '../../src/lib/server/audit/audit.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { getRevision, listRevisions, restoreRevision } from '../../src/lib/server/content/history.ts';
import { allowMethods, handle, idFrom, json } from '../../src/lib/server/http.ts';
import { pageQuery } from '../../src/lib/server/pagination.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/**
 * Revisions of an article or event (docs/decisions/161-content-and-editor.md):
 * - GET  /api/admin/{news,events}/:id/revisions?page&pageSize  list (any staff), newest first, a page at a time
 * - GET  /api/admin/{news,events}/:id/revisions/:n          one version with the whole record
 * - POST /api/admin/{news,events}/:id/revisions/:n/restore  bring it back as a new version (editor, admin)
 */
export default handle(async (req: Request, context: Context) => {
  const path = new URL(req.url).pathname.replace(/\/$/, '');
  const kind: HistoryKind = path.startsWith('/api/admin/news/') ? 'article' : 'event';
  const restore = path.endsWith('/restore');
  const hasRev = context.params?.n !== undefined;
  allowMethods(req, restore ? 'POST' : 'GET');
  const id = idFrom(context);
  if (!restore) {
    await requireUser(req);
    if (!hasRev) return json(await listRevisions(kind, id, pageQuery(new URL(req.url))));
    const revision = await getRevision(kind, id, idFrom(context, 'n'));
    if (!revision) throw new HttpError(404, 'Revision not found');
    return json({ revision });
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  const n = idFrom(context, 'n');
  const { before, after, revision } = await restoreRevision(kind, id, n, user);
  const details = {
    restoredVersion: String(n),
    ...(revision.changed.length ? { changed: revision.changed.join(', ') } : {}),
  };
  if (kind === 'article' && 'slug' in after && 'slug' in before) {
    await audit(context, user, 'article.restore', target.article(after), details);
    const visibility = articleSaveKind(before, after);
    if (visibility !== 'article.update') await audit(context, user, visibility, target.article(after));
    await purgeTags(CACHE_TAGS.news);
    return json({ article: after, revision });
  }
  if ('isPublic' in after && 'isPublic' in before) {
    await audit(context, user, 'event.restore', target.event(after), details);
    const visibility = eventSaveKind(before, after);
    if (visibility !== 'event.update') await audit(context, user, visibility, target.event(after));
  }
  await purgeTags(CACHE_TAGS.events);
  return json({ event: after, revision });
});

export const config: Config = {
  path: [
    '/api/admin/news/:id/revisions',
    '/api/admin/news/:id/revisions/:n',
    '/api/admin/news/:id/revisions/:n/restore',
    '/api/admin/events/:id/revisions',
    '/api/admin/events/:id/revisions/:n',
    '/api/admin/events/:id/revisions/:n/restore',
  ],
};
