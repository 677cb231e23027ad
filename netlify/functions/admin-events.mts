import type { Config, Context } from '@netlify/functions';
import { EventInputSchema } from '../../src/lib/schemas/event.ts';
import { adminEvents, createEvent } from '../../src/lib/server/content/events.ts';
import {
  deleteToTrash,
  recordRevision,
  updateEventWithHistory,
} from '../../src/lib/server/content/history.ts';
import { audit, changedDetail, eventSaveKind, target } from '../../src/lib/server/audit/audit.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { pageResponse } from '../../src/lib/server/pagination.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  allowMethods(req, ...(hasId ? ['PUT', 'DELETE'] : ['GET', 'POST']));
  if (req.method === 'GET') {
    await requireUser(req);
    return pageResponse('events', await adminEvents(), req);
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  if (req.method === 'POST') {
    const event = await createEvent(await readJson(req, EventInputSchema));
    await recordRevision('event', event, user, 'create');
    await audit(context, user, 'event.create', target.event(event));
    await purgeTags(CACHE_TAGS.events);
    return json({ event }, { status: 201 });
  }
  const id = idFrom(context);
  if (req.method === 'PUT') {
    const input = await readJson(req, EventInputSchema);
    const { before, after: event, revision } = await updateEventWithHistory(id, input, user);
    await audit(
      context,
      user,
      eventSaveKind(before, event),
      target.event(event),
      changedDetail(revision.changed),
    );
    await purgeTags(CACHE_TAGS.events);
    return json({ event });
  }
  if (req.method === 'DELETE') {
    await audit(context, user, 'event.delete', target.event(await deleteToTrash('event', id, user)));
    await purgeTags(CACHE_TAGS.events);
    return json({ success: true });
  }
  throw new HttpError(405, 'Method not allowed');
});

export const config: Config = { path: ['/api/admin/events', '/api/admin/events/:id'] };
