import type { Config, Context } from '@netlify/functions';
import {
  BROADCAST_VERSION_REQUIRED,
  BroadcastInputSchema,
  ScheduleBodySchema,
  SendBodySchema,
  TestSendSchema,
} from '../../src/lib/schemas/broadcasts.ts';
import { z } from '../../src/lib/schemas/zod.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { availableAudiences } from '../../src/lib/server/broadcasts/audiences.ts';
import { listBroadcasts, requireBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import {
  BROADCAST_ACTIONS,
  EDITOR_ACTIONS,
  type BroadcastActionName as Action,
} from '../../src/lib/schemas/broadcast-views.ts';
import {
  act,
  broadcastTarget,
  broadcastView,
  createDraft,
  testSend,
  updateDraft,
} from '../../src/lib/server/broadcasts/staff.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';
import { directExport } from '../../src/lib/server/exports/exports.ts';

/**
 * Broadcasts (docs/decisions/152-broadcasts.md). Editors and admins (draft_broadcasts):
 * - GET  /api/admin/broadcasts                      the list, and the audiences that exist yet
 * - POST /api/admin/broadcasts                      a new draft
 * - GET  /api/admin/broadcasts/:id                  the broadcast, its progress, estimate and preview
 * - GET  /api/admin/broadcasts/:id?format=csv       every recipient and what happened (audited)
 * - PUT  /api/admin/broadcasts/:id                  edit a draft (a prepared one goes back to draft)
 * - POST /api/admin/broadcasts/:id/prepare          count the audience (the delivery job queues it)
 * - POST /api/admin/broadcasts/:id/test             a test to the sender's own phone or email
 * Admins only (send_broadcasts): POST .../send {version}, .../schedule {at, version}, .../pause, .../resume,
 * .../cancel. `version` is the view's: the version the admin reviewed (a broadcast changed since is a 409).
 * Every write is audited; a send or schedule names the version approved.
 */
const MAX_BROADCAST_BYTES = 256 * 1024;
const NoBodySchema = z.strictObject({});

async function actionBody(req: Request, action: Action): Promise<{ at?: string; version?: string }> {
  if (action === 'send' || action === 'schedule') {
    // No body at all: the approval does not say what it approves.
    if (!req.headers.get('content-type'))
      throw new HttpError(400, BROADCAST_VERSION_REQUIRED, { fields: { version: 'Required' } });
    return readJson(req, action === 'send' ? SendBodySchema : ScheduleBodySchema);
  }
  // The other actions take no body; an empty JSON object is accepted too.
  if ((req.headers.get('content-length') ?? '0') !== '0' || req.headers.get('content-type'))
    await readJson(req, NoBodySchema);
  return {};
}

export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  // The action is the path's last segment (each is its own route in config.path below).
  const last = new URL(req.url).pathname.split('/').at(-1)!;
  const action = hasId && last !== context.params?.id ? last : undefined;
  allowMethods(req, ...(action ? ['POST'] : hasId ? ['GET', 'PUT'] : ['GET', 'POST']));
  if (!hasId) {
    const user = await requireUser(req, { permission: 'draft_broadcasts' });
    if (req.method === 'GET') return json({ items: await listBroadcasts(), audiences: availableAudiences() });
    const b = await createDraft(await readJson(req, BroadcastInputSchema, MAX_BROADCAST_BYTES), user);
    await audit(context, user, 'broadcast.draft', broadcastTarget(b), { channel: b.channel });
    return json({ broadcast: b }, { status: 201 });
  }
  const id = idFrom(context);
  if (action === 'test') {
    const user = await requireUser(req, { permission: 'draft_broadcasts' });
    const result = await testSend(id, user, await readJson(req, TestSendSchema));
    await audit(context, user, 'broadcast.test_send', broadcastTarget(await requireBroadcast(id)), {
      to: result.to,
      result: result.sent ? 'sent' : result.reason,
    });
    return json(result);
  }
  if (action !== undefined) {
    if (!(BROADCAST_ACTIONS as readonly string[]).includes(action)) throw new HttpError(404, 'Not found');
    const a = action as Action;
    const user = await requireUser(req, {
      permission: EDITOR_ACTIONS.includes(a) ? 'draft_broadcasts' : 'send_broadcasts',
    });
    const body = await actionBody(req, a);
    const { before, after } = await act(id, a, user, body);
    await audit(context, user, `broadcast.${a}`, broadcastTarget(after), {
      from: before.status,
      to: after.status,
      ...(after.scheduledAt && a === 'schedule' ? { at: after.scheduledAt } : {}),
      ...(a === 'send' || a === 'schedule'
        ? { recipients: String(after.run.recipients), segments: String(after.run.segments) }
        : {}),
      // The version approved (the content hash, version.ts), and the one a resume goes on with.
      ...(a === 'send' || a === 'schedule' || a === 'resume' ? { version: after.approvedVersion ?? '' } : {}),
    });
    return json(await broadcastView(id));
  }
  const user = await requireUser(req, { permission: 'draft_broadcasts' });
  if (req.method === 'PUT') {
    const input = await readJson(req, BroadcastInputSchema, MAX_BROADCAST_BYTES);
    const { after } = await updateDraft(id, input, user);
    await audit(context, user, 'broadcast.update', broadcastTarget(after));
    return json(await broadcastView(id));
  }
  const format = new URL(req.url).searchParams.get('format');
  if (format === 'csv') {
    // The report through the one export mechanism: the file when small, else 413 pointing at Export CSV.
    return directExport(user, context, 'broadcast', { broadcast: String(id) });
  }
  if (format !== null) throw new HttpError(400, 'Unknown format');
  return json(await broadcastView(id));
});

export const config: Config = {
  path: [
    '/api/admin/broadcasts',
    '/api/admin/broadcasts/:id',
    '/api/admin/broadcasts/:id/test',
    '/api/admin/broadcasts/:id/prepare',
    '/api/admin/broadcasts/:id/send',
    '/api/admin/broadcasts/:id/schedule',
    '/api/admin/broadcasts/:id/pause',
    '/api/admin/broadcasts/:id/resume',
    '/api/admin/broadcasts/:id/cancel',
  ],
};
