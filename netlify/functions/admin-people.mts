import type { Config, Context } from '@netlify/functions';
import { z } from '../../src/lib/schemas/zod.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';
import { forgetPerson, PersonNotFound } from '../../src/lib/server/supporters/forget-person.ts';
import { mergePeople, mergeQueue, undoMerge } from '../../src/lib/server/people/merge.ts';
import { getPerson } from '../../src/lib/server/people/person.ts';
import { attendanceForEmails } from '../../src/lib/server/events/shift-attendance.ts';
import { peoplePage, personView } from '../../src/lib/server/people/staff.ts';
import { stopContact } from '../../src/lib/server/messaging/stop.ts';
import { filterFromParams } from '../../src/lib/server/people/filters.ts';
import { addNote, changeTags, MAX_TAGS, NOTE_MAX, TagSchema } from '../../src/lib/server/people/tags.ts';

/**
 * People (docs/decisions/149-people.md):
 * - GET  /api/admin/people?q=&source=&page=N    the list, newest first, searched and filtered (every role; viewers
 *                                               see no contact details and search by name, city or ZIP only)
 * - GET  /api/admin/people/:id                  a person with their timeline (every role, as above)
 * - GET  /api/admin/people/queue?page=N         the merge queue (editors, admins)
 * - POST /api/admin/people/:id/merge {mergeId}  merge `mergeId` into this person (editors, admins; audited)
 * - POST /api/admin/people/:id/unmerge          undo this person's merge (editors, admins; audited)
 * - POST /api/admin/people/:id/consent {channel} a stop request staff recorded: email, text or all (audited)
 * - POST /api/admin/people/:id/forget           "forget me" (admins; audited with no personal data)
 * - POST /api/admin/people/:id/tags {add, remove} add and remove tags (editors, admins; audited)
 * - POST /api/admin/people/:id/notes {text}      a private note (editors, admins; audited without its text)
 * The list's filters (people/filters.ts): &source= &tag= &lang= &zip= &email=|text=granted|revoked|none
 * &has=&hasNot= (comma-separated: volunteered, rsvp, rsvp:<event id>, attended, attended:<event id>, plan, donated).
 */

const Id = z.string().regex(/^[a-f0-9]{32}$/, 'Unknown person');
const MergeSchema = z.strictObject({ mergeId: Id });
const ConsentSchema = z.strictObject({ channel: z.enum(['email', 'text', 'all']) });
const NoBodySchema = z.strictObject({});
const TagsSchema = z
  .strictObject({
    add: z.array(TagSchema).max(MAX_TAGS).default([]),
    remove: z.array(TagSchema).max(MAX_TAGS).default([]),
  })
  .refine((b) => b.add.length + b.remove.length > 0, 'Give tags to add or remove');
const NoteSchema = z.strictObject({
  text: z.string().trim().min(1, 'Write a note').max(NOTE_MAX, `A note is at most ${NOTE_MAX} characters`),
});
const ACTIONS = ['merge', 'unmerge', 'consent', 'forget', 'tags', 'notes'] as const;

const target = (id: string) => ({ type: 'person', id, label: `Person ${id.slice(0, 8)}` });

function pageOf(url: URL): number {
  const raw = Number(url.searchParams.get('page') ?? '1');
  return Number.isSafeInteger(raw) && raw >= 1 && raw <= 10_000 ? raw : 1;
}

async function emptyBody(req: Request): Promise<void> {
  if ((req.headers.get('content-length') ?? '0') !== '0' || req.headers.get('content-type'))
    await readJson(req, NoBodySchema);
}

export default handle(async (req: Request, context: Context) => {
  const url = new URL(req.url);
  const id = context.params?.id;
  // The action is the path's last segment (each is its own route in config.path below).
  const last = url.pathname.replace(/\/$/, '').split('/').at(-1)!;
  const action = id !== undefined && last !== id ? last : undefined;
  allowMethods(req, action === undefined ? 'GET' : 'POST');
  if (id === undefined) {
    const user = await requireUser(req);
    const filter = filterFromParams(Object.fromEntries(url.searchParams));
    return json(await peoplePage(user, { ...filter, page: pageOf(url) }));
  }
  if (id === 'queue' && action === undefined) {
    await requireUser(req, { permission: 'edit_content' });
    return json(await mergeQueue(pageOf(url)));
  }
  const pid = Id.safeParse(id);
  if (!pid.success) throw new HttpError(404, 'Person not found');
  if (action === undefined) {
    const user = await requireUser(req);
    return json(await personView(user, pid.data, attendanceForEmails));
  }
  if (!(ACTIONS as readonly string[]).includes(action)) throw new HttpError(404, 'Not found');
  if (action === 'forget') {
    const user = await requireUser(req, { permission: 'admin' });
    await emptyBody(req);
    try {
      const report = await forgetPerson(pid.data);
      const removed = Object.values(report.removed).reduce((n, x) => n + (x ?? 0), 0);
      await audit(context, user, 'person.forget', target(pid.data), {
        removed: String(removed),
        tombstones: String(report.tombstones),
      });
      return json({ report });
    } catch (err) {
      if (err instanceof PersonNotFound) throw new HttpError(404, 'Person not found');
      throw err;
    }
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  if (action === 'tags') {
    const { add, remove } = await readJson(req, TagsSchema);
    const tags = await changeTags(pid.data, add, remove);
    await audit(context, user, 'person.tags', target(pid.data), {
      ...(add.length ? { added: add.join(' ') } : {}),
      ...(remove.length ? { removed: remove.join(' ') } : {}),
    });
    return json({ tags });
  }
  if (action === 'notes') {
    const { text } = await readJson(req, NoteSchema, NOTE_MAX * 4 + 256);
    const note = await addNote(pid.data, text, user.username);
    // The note's text stays on the person: the audit trail names the note, not what it says.
    await audit(context, user, 'person.note', target(pid.data), { note: note.id });
    return json({ note }, { status: 201 });
  }
  if (action === 'merge') {
    const { mergeId } = await readJson(req, MergeSchema);
    const r = await mergePeople(pid.data, mergeId, user.id);
    await audit(context, user, 'person.merge', target(pid.data), { merged: mergeId });
    return json(r);
  }
  if (action === 'unmerge') {
    await emptyBody(req);
    const r = await undoMerge(pid.data);
    await audit(context, user, 'person.unmerge', target(r.kept), { restored: pid.data });
    return json(r);
  }
  const { channel } = await readJson(req, ConsentSchema);
  if (!(await getPerson(pid.data))) throw new HttpError(404, 'Person not found');
  const r = await stopContact(pid.data, channel === 'all' ? ['email', 'text'] : [channel], 'staff');
  await audit(context, user, 'person.consent', target(pid.data), { channel, action: 'revoke' });
  return json({ stopped: channel, ...r });
});

export const config: Config = {
  path: [
    '/api/admin/people',
    '/api/admin/people/:id',
    '/api/admin/people/:id/merge',
    '/api/admin/people/:id/unmerge',
    '/api/admin/people/:id/consent',
    '/api/admin/people/:id/forget',
    '/api/admin/people/:id/tags',
    '/api/admin/people/:id/notes',
  ],
};
