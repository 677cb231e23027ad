import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as broadcastsFn from '../../netlify/functions/admin-broadcasts.mts';
import * as exportsFn from '../../netlify/functions/admin-exports.mts';
import type { ExportJobView } from '../../src/lib/schemas/exports.ts';
import type { StoredSubscriber, StoredTextSignup } from '../../src/lib/schemas/inbox.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { getBroadcast, listBroadcasts, updateBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { BROADCAST_CHANGED, type BroadcastView } from '../../src/lib/schemas/broadcast-views.ts';
import { BROADCAST_VERSION_REQUIRED } from '../../src/lib/schemas/broadcasts.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { INBOX_SPECS } from '../../src/lib/server/inbox/summaries.ts';
import { noteSummary } from '../../src/lib/server/inbox/summary-shapes.ts';
import { hashed, key } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { FakeClock } from '../helpers/broadcasts.ts';
import { localProviders } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { verifyPhone } from '../helpers/staff-phone.ts';
import { outboxEmails, signedIn } from '../helpers/users.ts';

/**
 * The staff side of broadcasts (docs/decisions/152-broadcasts.md): drafts, the count
 * and estimate, test sends to the sender's own phone or email, send, schedule, pause, resume,
 * cancel, progress and the per-broadcast CSV; every status an action does not apply to is a 409,
 * and bad input a 400 that stores nothing. The permission matrix is in staff-permissions.test.ts
 * and the audit entries in audit-coverage.test.ts.
 */

let stop: () => Promise<void>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let editor: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
  localProviders();
  admin = await signedIn('admin');
  editor = await signedIn('editor');
});
afterAll(() => stop());

const json = async <T>(res: Response) => (await res.json()) as T;

/** Writes a record as the form paths do: the record, then its summary in the list's index. */
async function stored(kind: 'email-subscribers' | 'text-signups', k: string, record: unknown): Promise<void> {
  await kv(INBOX_SPECS[kind].store).put(k, record);
  await noteSummary(kind, INBOX_SPECS[kind].fromRecord(record, k)!);
}
const at = '2025-06-01T12:00:00.000Z';

async function subscribers(n: number, tag: string): Promise<string[]> {
  const emails = Array.from({ length: n }, (_, i) => `${tag}${i}@example.org`);
  await Promise.all(
    emails.map((email, i) =>
      stored('email-subscribers', key('subscriber', hashed(email)), {
        id: hashed(email),
        email,
        sourcePage: `/${tag}?ref=doors`,
        consentText: 'Yes',
        consentVersion: 'v1',
        lang: i % 3 === 0 ? 'es' : 'en',
        createdAt: at,
        ip: null,
        userAgent: null,
        status: 'subscribed',
        confirmedAt: at,
        confirmIp: null,
        confirmUserAgent: null,
        emailsSent: [],
      } satisfies StoredSubscriber),
    ),
  );
  return emails;
}

const EMAIL = (tag: string) => ({
  name: `Newsletter ${tag}`,
  channel: 'email',
  audience: { kind: 'newsletter_subscribers', source: `/${tag}` },
  email: {
    subject: 'Polls open at 7',
    subjectEs: 'Las urnas abren a las 7',
    preview: 'Find your polling place',
    previewEs: 'Encuentre su lugar de votación',
    html: '<p>Hi {firstName}, <strong>vote</strong>.</p><script>alert(1)</script>',
    htmlEs: '<p>Hola {firstName}, <em>vote</em>.</p>',
    firstNameFallback: 'neighbor',
  },
});

const post = (path: string, cookie: string, body?: unknown) =>
  call(broadcastsFn, path, { method: 'POST', cookie, ...(body !== undefined ? { json: body } : {}) });
const view = async (id: number) =>
  json<BroadcastView>(await call(broadcastsFn, `/api/admin/broadcasts/${id}`, { cookie: editor.cookie }));

/** The delivery job, as the scheduled function runs it, until `done` (a fake clock: no waiting). */
async function runUntil(id: number, done: (s: string) => boolean, clock = new FakeClock(Date.now())) {
  for (let i = 0; i < 50; i += 1) {
    const b = await getBroadcast(id);
    if (b && done(b.status)) return b;
    await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
    clock.advance(60_000);
  }
  throw new Error('the job did not get there');
}

describe('an email broadcast from draft to completed', () => {
  /** Each step from its own broadcast to 12 subscribers of its own (tests run in any order). */
  async function drafted(tag: string) {
    const emails = await subscribers(12, tag);
    const res = await call(broadcastsFn, '/api/admin/broadcasts', {
      json: EMAIL(tag),
      cookie: editor.cookie,
    });
    expect(res.status).toBe(201);
    return { res, emails, id: (await json<{ broadcast: { id: number } }>(res.clone())).broadcast.id };
  }
  async function prepared(tag: string) {
    const d = await drafted(tag);
    expect((await post(`/api/admin/broadcasts/${d.id}/prepare`, editor.cookie)).status).toBe(200);
    await runUntil(d.id, (s) => s === 'ready');
    return d;
  }

  it('an editor drafts it: the HTML is sanitised with the article allowlist; the list shows it', async () => {
    const { res, id } = await drafted('flow-draft');
    const { broadcast } = await json<{ broadcast: { id: number; status: string; email: { html: string } } }>(
      res,
    );
    expect(broadcast.id).toBe(id);
    expect(broadcast.status).toBe('draft');
    expect(broadcast.email.html).toContain('<strong>vote</strong>');
    expect(broadcast.email.html).not.toContain('script');
    expect((await listBroadcasts()).map((b) => b.id)).toContain(id);
  });

  it('an editor cannot send it; preparing counts the audience, with the preview in both languages', async () => {
    const { id } = await drafted('flow-count');
    expect((await post(`/api/admin/broadcasts/${id}/send`, editor.cookie)).status).toBe(403);
    const prepared = await post(`/api/admin/broadcasts/${id}/prepare`, editor.cookie);
    expect(prepared.status).toBe(200);
    const preparing = await json<BroadcastView>(prepared);
    expect(preparing.broadcast.status).toBe('preparing');
    // Sending before the count is done is refused.
    const early = await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, {
      version: preparing.version,
    });
    expect(early.status).toBe(409);
    await runUntil(id, (s) => s === 'ready');
    const v = await view(id);
    expect(v.estimate).toMatchObject({ recipients: 12, segments: 12, spanish: 4, cost: 0 });
    expect(v.preview.en).toMatchObject({ subject: 'Polls open at 7' });
    expect('html' in v.preview.en && v.preview.en.html).toContain('Hi neighbor');
    expect('html' in v.preview.es && v.preview.es.html).toContain('Hola neighbor');
    expect('html' in v.preview.es && v.preview.es.html).toMatch(/Pagado por/i);
  });

  it('a test goes to the sender’s own address only', async () => {
    const { id } = await prepared('flow-test');
    const other = await post(`/api/admin/broadcasts/${id}/test`, editor.cookie, {
      to: 'someone@example.org',
    });
    expect(other.status).toBe(400);
    const res = await post(`/api/admin/broadcasts/${id}/test`, editor.cookie, { lang: 'es' });
    expect(await json(res)).toEqual({ sent: true, to: editor.user.email });
    const mail = (await outboxEmails()).filter((m) => m.to === editor.user.email).at(-1);
    expect(mail?.subject).toBe('[Test] Las urnas abren a las 7');
    expect(mail?.text).toContain('Hola editor');
  });

  it('an admin sends it: every subscriber once, progress and the CSV say so', async () => {
    const { id, emails } = await prepared('flow-send');
    const { version } = await view(id);
    const sent = await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, { version });
    expect(sent.status).toBe(200);
    expect((await json<BroadcastView>(sent)).broadcast).toMatchObject({
      status: 'sending',
      approvedBy: admin.username,
      approvedVersion: version,
    });
    // Sent twice (a double click): the second is a 409, nothing changes.
    expect((await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, { version })).status).toBe(409);
    await runUntil(id, (s) => s === 'completed');
    const v = await view(id);
    expect(v.progress).toMatchObject({ recipients: 12, processed: 12, queued: 0, waiting: 0 });
    expect(v.progress.counts.sent).toBe(12);
    const got = (await outboxEmails()).filter((m) => emails.includes(m.to));
    expect(got.map((m) => m.to).sort()).toEqual([...emails].sort());
    const csv = await call(broadcastsFn, `/api/admin/broadcasts/${id}?format=csv`, { cookie: editor.cookie });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const raw = new Uint8Array(await csv.arrayBuffer());
    // The one export format (docs/decisions/156-exports.md): a byte-order mark first.
    expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = new TextDecoder().decode(raw); // (decoding drops the mark)
    const lines = body.trim().split('\r\n');
    expect(lines[0]).toBe('Email,First name,Language,Outcome,Message id,Error');
    expect(lines).toHaveLength(13);
    expect(lines.slice(1).every((l) => l.includes(',Sent,'))).toBe(true);
    // Export CSV in the tab: the same file through the export mechanism, its signed link for the one who asked.
    const started = await call(exportsFn, '/api/admin/exports', {
      json: { source: 'broadcast', params: { broadcast: String(id) } },
      cookie: editor.cookie,
    });
    expect(started.status).toBe(201);
    const { job } = await json<{ job: ExportJobView }>(started);
    expect(job).toMatchObject({ status: 'done', rows: 12, total: 12 });
    const file = await call(exportsFn, job.downloads[0]!.url, { cookie: editor.cookie });
    expect(await file.text()).toBe(body);
    // A completed broadcast takes no more actions.
    for (const a of ['prepare', 'send', 'pause', 'resume', 'cancel'])
      expect(
        (await post(`/api/admin/broadcasts/${id}/${a}`, admin.cookie, a === 'send' ? { version } : undefined))
          .status,
        a,
      ).toBe(409);
  });
});

describe('schedule, pause, resume, cancel', () => {
  it('a schedule waits for its time; paused it does not start; resumed it is a schedule again', async () => {
    await subscribers(3, 'sched');
    const res = await call(broadcastsFn, '/api/admin/broadcasts', {
      json: EMAIL('sched'),
      cookie: admin.cookie,
    });
    const id = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
    await post(`/api/admin/broadcasts/${id}/prepare`, admin.cookie);
    await runUntil(id, (s) => s === 'ready');
    const { version } = await view(id);
    const past = await post(`/api/admin/broadcasts/${id}/schedule`, admin.cookie, {
      at: new Date(Date.now() - 60_000).toISOString(),
      version,
    });
    expect(past.status).toBe(400);
    const when = new Date(Date.now() + 3_600_000).toISOString();
    const s = await post(`/api/admin/broadcasts/${id}/schedule`, admin.cookie, { at: when, version });
    expect(s.status).toBe(200);
    expect((await json<BroadcastView>(s)).broadcast).toMatchObject({
      status: 'scheduled',
      scheduledAt: when,
    });
    // The job before the time sends nothing.
    await runBroadcasts({ clock: new FakeClock(Date.now()), deadline: Date.now() + 25_000 });
    expect((await getBroadcast(id))?.status).toBe('scheduled');
    expect(
      (await json<BroadcastView>(await post(`/api/admin/broadcasts/${id}/pause`, admin.cookie))).broadcast
        .status,
    ).toBe('paused');
    // Paused past its time: the job leaves it alone.
    const later = new FakeClock(Date.now() + 2 * 3_600_000);
    await runBroadcasts({ clock: later, deadline: later.now() + 25_000 });
    expect((await getBroadcast(id))?.status).toBe('paused');
    expect(
      (await json<BroadcastView>(await post(`/api/admin/broadcasts/${id}/resume`, admin.cookie))).broadcast
        .status,
    ).toBe('scheduled');
    const c = await json<BroadcastView>(await post(`/api/admin/broadcasts/${id}/cancel`, admin.cookie));
    expect(c.broadcast.status).toBe('cancelled');
    expect(c.progress).toMatchObject({ queued: 0 });
    expect(c.progress.counts.skipped_cancelled).toBe(3);
    await runBroadcasts({ clock: later, deadline: later.now() + 25_000 });
    expect((await getBroadcast(id))?.run.counts.sent).toBe(0);
    expect((await post(`/api/admin/broadcasts/${id}/resume`, admin.cookie)).status).toBe(409);
  });

  it('editing a prepared draft sends it back to draft; a sending one cannot be edited', async () => {
    await subscribers(2, 'edit');
    const res = await call(broadcastsFn, '/api/admin/broadcasts', {
      json: EMAIL('edit'),
      cookie: editor.cookie,
    });
    const id = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
    await post(`/api/admin/broadcasts/${id}/prepare`, editor.cookie);
    await runUntil(id, (s) => s === 'ready');
    const put = (body: unknown) =>
      call(broadcastsFn, `/api/admin/broadcasts/${id}`, { method: 'PUT', json: body, cookie: editor.cookie });
    const edited = await json<BroadcastView>(await put({ ...EMAIL('edit'), name: 'Renamed' }));
    expect(edited.broadcast).toMatchObject({ name: 'Renamed', status: 'draft' });
    expect(edited.estimate.recipients).toBe(0);
    await post(`/api/admin/broadcasts/${id}/prepare`, editor.cookie);
    await runUntil(id, (s) => s === 'ready');
    const sent = await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, {
      version: (await view(id)).version,
    });
    expect(sent.status).toBe(200);
    expect((await put(EMAIL('edit'))).status).toBe(409);
  });
});

describe('texts: the test send and the estimate', () => {
  it('a test text goes to the sender’s own verified phone; the estimate prices the segments', async () => {
    const phone = '+15045550111';
    const person: StoredTextSignup = {
      id: hashed(phone),
      firstName: 'Ana',
      phone,
      email: null,
      smsStatus: 'subscribed',
      consentAt: at,
      consentVersion: 'v1',
      lang: 'es',
      optedOutAt: null,
      sourcePage: '/texts',
      createdAt: at,
      updatedAt: at,
      confirmation: null,
    };
    await stored('text-signups', key('person', hashed(phone)), person);
    const res = await call(broadcastsFn, '/api/admin/broadcasts', {
      json: {
        name: 'GOTV text',
        channel: 'text',
        audience: { kind: 'text_subscribers', source: '/texts' },
        text: {
          body: 'Hi {firstName}, vote today 🗳️',
          bodyEs: 'Hola {firstName}, vote hoy',
          firstNameFallback: 'friend',
        },
      },
      cookie: editor.cookie,
    });
    const id = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
    // A test text goes to the sender's own verified phone only (docs/decisions/152-broadcasts.md;
    // the refusals are in broadcast-test-sends.test.ts).
    await verifyPhone(editor.cookie, '+12125550112');
    const mine = await json<{ sent: boolean; reason?: string }>(
      await post(`/api/admin/broadcasts/${id}/test`, editor.cookie, { to: '212-555-0112' }),
    );
    expect(mine).toEqual({ sent: true, to: '(•••) •••-0112' });
    expect((await post(`/api/admin/broadcasts/${id}/test`, editor.cookie, { to: phone })).status).toBe(400);
    await post(`/api/admin/broadcasts/${id}/prepare`, editor.cookie);
    await runUntil(id, (s) => s === 'ready');
    const v = await view(id);
    // One Spanish recipient: "Avery for Mayor: Hola Ana, vote hoy Responda ALTO para cancelar." is one GSM-7 segment.
    expect(v.estimate).toMatchObject({
      recipients: 1,
      segments: 1,
      spanish: 1,
      pricePerSegment: 0.0083,
      cost: 0.01,
    });
    expect(v.preview.es).toEqual({
      text: 'Avery for Mayor: Hola friend, vote hoy Responda ALTO para cancelar.',
    });
  });
});

describe('approval is for one version (docs/decisions/152-broadcasts.md)', () => {
  /** An editor's email broadcast to `n` subscribers of its own, prepared and counted: its id and addresses. */
  async function readyBroadcast(tag: string, n = 3): Promise<{ id: number; emails: string[] }> {
    const emails = await subscribers(n, tag);
    const res = await call(broadcastsFn, '/api/admin/broadcasts', {
      json: EMAIL(tag),
      cookie: editor.cookie,
    });
    const id = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
    expect((await post(`/api/admin/broadcasts/${id}/prepare`, editor.cookie)).status).toBe(200);
    await runUntil(id, (s) => s === 'ready');
    return { id, emails };
  }
  /** The outside attack's swap: the editor changes the ready broadcast and prepares it again. */
  async function swap(id: number, tag: string) {
    const changed = {
      ...EMAIL(tag),
      email: {
        ...EMAIL(tag).email,
        subject: 'Your ballot was REJECTED',
        subjectEs: 'Su boleta fue RECHAZADA',
        html: '<p>Fix it <a href="https://evil.example/ballot">here</a>.</p>',
        htmlEs: '<p>Corríjala <a href="https://evil.example/ballot">aquí</a>.</p>',
      },
    };
    const put = await call(broadcastsFn, `/api/admin/broadcasts/${id}`, {
      method: 'PUT',
      json: changed,
      cookie: editor.cookie,
    });
    expect((await json<BroadcastView>(put)).broadcast.status).toBe('draft');
    expect((await post(`/api/admin/broadcasts/${id}/prepare`, editor.cookie)).status).toBe(200);
    await runUntil(id, (s) => s === 'ready');
  }
  const mailsTo = async (emails: string[]) => (await outboxEmails()).filter((m) => emails.includes(m.to));
  /** The audit entries of one broadcast's action. */
  async function entries(id: number, kind: 'broadcast.send' | 'broadcast.schedule') {
    const page = await auditPage({ page: 1, pageSize: 100, format: 'json', kind });
    return page.entries.filter((e) => e.target?.id === id);
  }

  it('the finding: sending the version reviewed after an editor swapped the content is a 409 and sends nothing; the new version, once reviewed, goes', async () => {
    const { id, emails } = await readyBroadcast('swap');
    const reviewed = await view(id);
    expect(reviewed.version).toMatch(/^[0-9a-f]{64}$/);
    await swap(id, 'swap');
    const now = await view(id);
    expect(now.version).not.toBe(reviewed.version);
    expect(now.preview.en).toMatchObject({ subject: 'Your ballot was REJECTED' });

    const refused = await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, {
      version: reviewed.version,
    });
    expect(refused.status).toBe(409);
    expect((await json<{ error: string }>(refused)).error).toBe(BROADCAST_CHANGED);
    expect(await getBroadcast(id)).toMatchObject({
      status: 'ready',
      approvedBy: null,
      approvedVersion: null,
    });
    // The job runs: nothing goes out, and no approval was recorded.
    await runBroadcasts({ clock: new FakeClock(Date.now()), deadline: Date.now() + 25_000 });
    expect(await mailsTo(emails)).toEqual([]);
    expect(await entries(id, 'broadcast.send')).toEqual([]);

    // Reviewed again, the version on screen is the one sent: every subscriber gets it once.
    const sent = await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, { version: now.version });
    expect(sent.status).toBe(200);
    expect((await json<BroadcastView>(sent)).broadcast.approvedVersion).toBe(now.version);
    await runUntil(id, (s) => s === 'completed');
    const got = await mailsTo(emails);
    expect(got.map((m) => m.to).sort()).toEqual([...emails].sort());
    expect(new Set(got.map((m) => m.subject))).toEqual(
      new Set(['Your ballot was REJECTED', 'Su boleta fue RECHAZADA']),
    );
    // The audit entry names the version approved.
    const [entry, ...more] = await entries(id, 'broadcast.send');
    expect(more).toEqual([]);
    expect(entry?.details).toMatchObject({ from: 'ready', to: 'sending', version: now.version });
  });

  it('send and schedule without a version, or with one that is not a version, are a 400 and change nothing', async () => {
    const { id } = await readyBroadcast('nover', 1);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    for (const [action, body] of [
      ['send', undefined],
      ['send', {}],
      ['send', { version: '' }],
      ['send', { version: 'v1' }],
      ['schedule', { at }],
      ['schedule', { at, version: 42 }],
    ] as const) {
      const res = await post(`/api/admin/broadcasts/${id}/${action}`, admin.cookie, body);
      expect(res.status, `${action} ${JSON.stringify(body)}`).toBe(400);
      expect((await json<{ error: string }>(res)).error).toBeTruthy();
    }
    const missing = await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, {});
    expect(await json(missing)).toMatchObject({ error: BROADCAST_VERSION_REQUIRED });
    expect(await getBroadcast(id)).toMatchObject({ status: 'ready', approvedBy: null, scheduledAt: null });
  });

  it('schedule: the version reviewed before the swap is a 409; the new one is scheduled, and its audit entry names it', async () => {
    const { id } = await readyBroadcast('swapsched', 1);
    const reviewed = await view(id);
    await swap(id, 'swapsched');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const refused = await post(`/api/admin/broadcasts/${id}/schedule`, admin.cookie, {
      at,
      version: reviewed.version,
    });
    expect(refused.status).toBe(409);
    expect((await json<{ error: string }>(refused)).error).toBe(BROADCAST_CHANGED);
    expect(await getBroadcast(id)).toMatchObject({ status: 'ready', scheduledAt: null, approvedBy: null });
    expect(await entries(id, 'broadcast.schedule')).toEqual([]);
    const { version } = await view(id);
    const scheduled = await post(`/api/admin/broadcasts/${id}/schedule`, admin.cookie, { at, version });
    expect(scheduled.status).toBe(200);
    expect(await getBroadcast(id)).toMatchObject({ status: 'scheduled', approvedVersion: version });
    const [entry] = await entries(id, 'broadcast.schedule');
    expect(entry?.details).toMatchObject({ to: 'scheduled', at, version });
    expect(version).not.toBe(reviewed.version);
  });

  it('a scheduled or paused broadcast cannot be edited, and a resume sends only the version approved', async () => {
    const { id } = await readyBroadcast('frozen', 1);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const { version } = await view(id);
    expect((await post(`/api/admin/broadcasts/${id}/schedule`, admin.cookie, { at, version })).status).toBe(
      200,
    );
    const edit = () =>
      call(broadcastsFn, `/api/admin/broadcasts/${id}`, {
        method: 'PUT',
        json: { ...EMAIL('frozen'), name: 'Changed' },
        cookie: editor.cookie,
      });
    expect((await edit()).status).toBe(409);
    expect((await post(`/api/admin/broadcasts/${id}/pause`, admin.cookie)).status).toBe(200);
    expect((await edit()).status).toBe(409);
    expect((await view(id)).version).toBe(version);
    // Content that is not the version approved (no route writes it: the store is edited by hand) is not resumed.
    await updateBroadcast(id, (b) => ({ ...b, email: { ...b.email!, subject: 'Swapped while paused' } }));
    const resumed = await post(`/api/admin/broadcasts/${id}/resume`, admin.cookie);
    expect(resumed.status).toBe(409);
    expect((await getBroadcast(id))?.status).toBe('paused');
  });
});

describe('bad input: 4xx with { error }, nothing stored', () => {
  it('drafts, actions and ids', async () => {
    const before = (await listBroadcasts()).length;
    for (const body of [
      {},
      { ...EMAIL('x'), channel: 'text' },
      { ...EMAIL('x'), audience: { kind: 'text_subscribers' } },
      { ...EMAIL('x'), email: { ...EMAIL('x').email, html: '<script>x</script>' } },
      { ...EMAIL('x'), audience: { kind: 'event_attendees' } },
      { ...EMAIL('x'), audience: { kind: 'plan_to_vote' } },
      { ...EMAIL('x'), extra: 1 },
      [],
    ]) {
      const res = await call(broadcastsFn, '/api/admin/broadcasts', { json: body, cookie: admin.cookie });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json<{ error: string }>(res)).error).toBeTruthy();
    }
    expect((await listBroadcasts()).length).toBe(before);
    expect((await call(broadcastsFn, '/api/admin/broadcasts/999999', { cookie: admin.cookie })).status).toBe(
      404,
    );
    expect((await post('/api/admin/broadcasts/999999/cancel', admin.cookie)).status).toBe(404);
    expect((await call(broadcastsFn, '/api/admin/broadcasts/abc', { cookie: admin.cookie })).status).toBe(
      404,
    );
    const res = await call(broadcastsFn, '/api/admin/broadcasts', { json: EMAIL('x'), cookie: admin.cookie });
    const id = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
    const { version } = await view(id);
    expect(
      (await post(`/api/admin/broadcasts/${id}/schedule`, admin.cookie, { at: 'tomorrow', version })).status,
    ).toBe(400);
    expect((await post(`/api/admin/broadcasts/${id}/pause`, admin.cookie, { x: 1 })).status).toBe(400);
    expect(
      (await call(broadcastsFn, `/api/admin/broadcasts/${id}?format=xml`, { cookie: admin.cookie })).status,
    ).toBe(400);
    expect((await getBroadcast(id))?.status).toBe('draft');
  });
});
