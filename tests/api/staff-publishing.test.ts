import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import * as adminEvents from '../../netlify/functions/admin-events.mts';
import * as adminInbox from '../../netlify/functions/admin-inbox.mts';
import * as adminMetrics from '../../netlify/functions/admin-metrics.mts';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as adminSocial from '../../netlify/functions/admin-social-media-links.mts';
import * as adminTwoFactorFn from '../../netlify/functions/admin-two-factor.mts';
import * as adminUsers from '../../netlify/functions/admin-users.mts';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import * as logoutFn from '../../netlify/functions/auth-logout.mts';
import * as meFn from '../../netlify/functions/auth-me.mts';
import * as newsFn from '../../netlify/functions/news.mts';
import * as revisionsFn from '../../netlify/functions/admin-revisions.mts';
import * as trashFn from '../../netlify/functions/admin-trash.mts';
import * as twoFactorFn from '../../netlify/functions/auth-two-factor.mts';
import type { AuditEntry, AuditPage } from '../../src/lib/schemas/audit.ts';
import type { RevisionSummary, TrashSummary } from '../../src/lib/schemas/history.ts';
import { appendAudit, matchingKeys, rangePrefix, verifyChain } from '../../src/lib/server/audit/audit.ts';
import { totpCode } from '../../src/lib/server/auth/totp.ts';
import { getUser } from '../../src/lib/server/auth/users.ts';
import { listTrash, restoreFromTrash, TRASH_MS } from '../../src/lib/server/content/history.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs, useFakeService } from '../helpers/blobs.ts';
import { call, sessionCookie } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());

const json = async <T>(res: Response) => (await res.json()) as T;
let seq = 0;
const unique = () => `${Date.now().toString(36)}-${++seq}`;

async function activity(cookie: string, query = ''): Promise<AuditPage> {
  const res = await call(activityFn, `/api/admin/activity?pageSize=200${query}`, { cookie });
  expect(res.status).toBe(200);
  return json<AuditPage>(res);
}

describe('revisions', () => {
  it('every save keeps a version (who, when, what changed); restoring the first is a new version', async () => {
    const editor = await signedIn('editor');
    const slug = `rev-${unique()}`;
    const base = { title: 'First title', slug, content: '<p>First text</p>', author: 'Press Office' };
    const created = await call(adminNews, '/api/admin/news', { json: base, cookie: editor.cookie });
    const { article } = await json<{ article: { id: number; updatedAt: string } }>(created);
    let updatedAt = article.updatedAt;
    for (const [title, content] of [
      ['Second title', '<p>Second text</p>'],
      ['Third title', '<p>Third text</p>'],
    ]) {
      const res = await call(adminNews, `/api/admin/news/${article.id}`, {
        method: 'PUT',
        json: { ...base, title, content, expectedUpdatedAt: updatedAt },
        cookie: editor.cookie,
      });
      expect(res.status).toBe(200);
      updatedAt = (await json<{ article: { updatedAt: string } }>(res)).article.updatedAt;
    }
    const list = await json<{ revisions: RevisionSummary[] }>(
      await call(revisionsFn, `/api/admin/news/${article.id}/revisions`, { cookie: editor.cookie }),
    );
    expect(list.revisions.map((r) => [r.n, r.action, r.actorName])).toEqual([
      [3, 'update', editor.username],
      [2, 'update', editor.username],
      [1, 'create', editor.username],
    ]);
    expect(list.revisions[0]!.changed).toEqual(['title', 'content']);

    const restore = await call(revisionsFn, `/api/admin/news/${article.id}/revisions/1/restore`, {
      method: 'POST',
      cookie: editor.cookie,
    });
    expect(restore.status).toBe(200);
    const restored = await json<{ article: { title: string; content: string }; revision: RevisionSummary }>(
      restore,
    );
    expect(restored.article).toMatchObject({ title: 'First title', content: '<p>First text</p>' });
    expect(restored.revision).toMatchObject({ n: 4, action: 'restore', restoredFrom: 1 });
    const detail = await json<{ revision: { snapshot: { title: string } } }>(
      await call(revisionsFn, `/api/admin/news/${article.id}/revisions/3`, { cookie: editor.cookie }),
    );
    expect(detail.revision.snapshot.title).toBe('Third title');
  });

  it('an article saved before revisions existed keeps its old version on the first save', async () => {
    const admin = await signedIn('admin');
    const { createArticle } = await import('../../src/lib/server/content/articles.ts');
    const { ArticleInputSchema } = await import('../../src/lib/schemas/article.ts');
    const old = await createArticle(
      ArticleInputSchema.parse({
        title: 'Legacy',
        slug: `legacy-${unique()}`,
        content: '<p>Old</p>',
        author: 'A',
      }),
    );
    const res = await call(adminNews, `/api/admin/news/${old.id}`, {
      method: 'PUT',
      json: { title: 'Legacy', slug: old.slug, content: '<p>New</p>', author: 'A' },
      cookie: admin.cookie,
    });
    expect(res.status).toBe(200);
    const { revisions } = await json<{ revisions: RevisionSummary[] }>(
      await call(revisionsFn, `/api/admin/news/${old.id}/revisions`, { cookie: admin.cookie }),
    );
    expect(revisions.map((r) => r.action)).toEqual(['update', 'baseline']);
    expect(revisions[0]!.changed).toEqual(['content']);
  });

  it('events have revisions too', async () => {
    const editor = await signedIn('editor');
    const ev = {
      title: 'Town hall',
      location: 'Gentilly',
      eventDate: '2030-03-01',
      startTime: '18:00',
      eventType: 'town_hall',
    };
    const { event } = await json<{ event: { id: number } }>(
      await call(adminEvents, '/api/admin/events', { json: ev, cookie: editor.cookie }),
    );
    await call(adminEvents, `/api/admin/events/${event.id}`, {
      method: 'PUT',
      json: { ...ev, location: 'Lakeview', isPublic: false },
      cookie: editor.cookie,
    });
    const { revisions } = await json<{ revisions: RevisionSummary[] }>(
      await call(revisionsFn, `/api/admin/events/${event.id}/revisions`, { cookie: editor.cookie }),
    );
    expect(revisions[0]!.changed).toEqual(['location', 'isPublic']);
  });
});

describe('preview', () => {
  it('a draft preview shows the form as it was, only to the member who made it, for 10 minutes', async () => {
    const { articlePreview, PREVIEW_TTL_MS } = await import('../../src/lib/server/content/preview.ts');
    const previewFn = await import('../../netlify/functions/admin-preview.mts');
    const a = await signedIn('editor');
    const b = await signedIn('editor');
    const res = await call(previewFn, '/api/admin/preview', {
      json: {
        title: 'Not yet',
        slug: 'not-yet',
        content: '<h2>Plan</h2><script>x</script><p onclick="y">Body</p>',
        author: 'Press Office',
        isPublished: true,
        publishedAt: '2031-01-01T12:00:00Z',
      },
      cookie: a.cookie,
    });
    expect(res.status).toBe(201);
    const { url } = await json<{ url: string }>(res);
    expect(url).toMatch(/^\/admin\/preview\?draft=[A-Za-z0-9_-]{32}$/);
    const page = (cookie: string) => new Request(`http://localhost:4321${url}`, { headers: { cookie } });
    const seen = await articlePreview(page(a.cookie));
    expect(seen.view.contentHtml).toBe('<h2>Plan</h2><p>Body</p>');
    expect(seen).toMatchObject({ state: 'scheduled', publishAt: '2031-01-01T12:00:00.000Z' });
    await expect(articlePreview(page(b.cookie))).rejects.toMatchObject({ status: 404 });
    await expect(articlePreview(new Request(`http://localhost:4321${url}`))).rejects.toMatchObject({
      status: 401,
    });
    await expect(
      articlePreview(page(a.cookie), new Date(Date.now() + PREVIEW_TTL_MS + 1000)),
    ).rejects.toMatchObject({
      status: 404,
    });
    // Nothing was published.
    expect((await call(newsFn, '/api/news')).status).toBe(200);
    const feed = await json<{ articles: { slug: string }[] }>(await call(newsFn, '/api/news'));
    expect(feed.articles.some((x) => x.slug === 'not-yet')).toBe(false);
  });
});

describe('trash', () => {
  afterEach(() => setStoreFactory(null));

  it('a deleted event is restored by an editor with its id and history; viewers cannot', async () => {
    const admin = await signedIn('admin');
    const editor = await signedIn('editor');
    const viewer = await signedIn('viewer');
    const ev = {
      title: `Rally ${unique()}`,
      location: 'Treme',
      eventDate: '2030-04-01',
      startTime: '12:00',
      eventType: 'rally',
    };
    const { event } = await json<{ event: { id: number } }>(
      await call(adminEvents, '/api/admin/events', { json: ev, cookie: editor.cookie }),
    );
    expect(
      (await call(adminEvents, `/api/admin/events/${event.id}`, { method: 'DELETE', cookie: editor.cookie }))
        .status,
    ).toBe(200);
    const { items } = await json<{ items: TrashSummary[] }>(
      await call(trashFn, '/api/admin/trash', { cookie: admin.cookie }),
    );
    const entry = items.find((i) => i.kind === 'event' && i.id === event.id)!;
    expect(entry).toMatchObject({ title: ev.title, deletedByName: editor.username });
    expect(Date.parse(entry.expiresAt) - Date.parse(entry.deletedAt)).toBe(TRASH_MS);

    // Editors may edit events, so they may bring one back (docs/decisions/161-content-and-editor.md).
    expect(
      (
        await call(trashFn, `/api/admin/trash/event/${event.id}/restore`, {
          method: 'POST',
          cookie: viewer.cookie,
        })
      ).status,
    ).toBe(403);
    const res = await call(trashFn, `/api/admin/trash/event/${event.id}/restore`, {
      method: 'POST',
      cookie: editor.cookie,
    });
    expect(res.status).toBe(200);
    const list = await json<{ events: { id: number }[] }>(
      await call(adminEvents, '/api/admin/events?pageSize=200', { cookie: admin.cookie }),
    );
    expect(list.events.map((e) => e.id)).toContain(event.id);
    const { revisions } = await json<{ revisions: RevisionSummary[] }>(
      await call(revisionsFn, `/api/admin/events/${event.id}/revisions`, { cookie: admin.cookie }),
    );
    expect(revisions.map((r) => r.action)).toEqual(['trash-restore', 'create']);
    expect(
      (
        await call(trashFn, `/api/admin/trash/event/${event.id}/restore`, {
          method: 'POST',
          cookie: admin.cookie,
        })
      ).status,
    ).toBe(404);
  });

  it('after 30 days an item leaves the Trash (fake clock)', async () => {
    setStoreFactory(() => new MemoryKV());
    const { createEvent } = await import('../../src/lib/server/content/events.ts');
    const { EventInputSchema } = await import('../../src/lib/schemas/event.ts');
    const { deleteToTrash } = await import('../../src/lib/server/content/history.ts');
    const ev = await createEvent(
      EventInputSchema.parse({
        title: 'Old',
        location: 'X',
        eventDate: '2030-01-01',
        startTime: '09:00',
        eventType: 'rally',
      }),
    );
    const deletedAt = new Date('2030-01-01T00:00:00Z');
    await deleteToTrash('event', ev.id, { id: 1, username: 'a' }, deletedAt);
    const justBefore = new Date(deletedAt.getTime() + TRASH_MS - 1);
    expect((await listTrash(justBefore)).items.map((t) => t.id)).toEqual([ev.id]);
    const after = new Date(deletedAt.getTime() + TRASH_MS);
    await expect(restoreFromTrash('event', ev.id, { id: 1, username: 'a' }, after)).rejects.toMatchObject({
      status: 410,
    });
    expect((await listTrash(after)).items).toEqual([]);
  });

  it('a deleted article comes back with its slug, or 409 when the slug was taken since', async () => {
    const admin = await signedIn('admin');
    const slug = `trash-${unique()}`;
    const body = { title: 'Gone', slug, content: '<p>x</p>', author: 'A', isPublished: true };
    const { article } = await json<{ article: { id: number } }>(
      await call(adminNews, '/api/admin/news', { json: body, cookie: admin.cookie }),
    );
    await call(adminNews, `/api/admin/news/${article.id}`, { method: 'DELETE', cookie: admin.cookie });
    const taker = await json<{ article: { id: number } }>(
      await call(adminNews, '/api/admin/news', { json: body, cookie: admin.cookie }),
    );
    expect(
      (
        await call(trashFn, `/api/admin/trash/article/${article.id}/restore`, {
          method: 'POST',
          cookie: admin.cookie,
        })
      ).status,
    ).toBe(409);
    await call(adminNews, `/api/admin/news/${taker.article.id}`, { method: 'DELETE', cookie: admin.cookie });
    expect(
      (
        await call(trashFn, `/api/admin/trash/article/${article.id}/restore`, {
          method: 'POST',
          cookie: admin.cookie,
        })
      ).status,
    ).toBe(200);
  });
});

describe('audit trail', () => {
  it('records a day of actions by three roles with the right person, and exports them all as CSV', async () => {
    const admin = await signedIn('admin');
    const editor = await signedIn('editor');
    const viewer = await signedIn('viewer');
    const start = (await verifyChain()).entries;
    const wrong = await call(loginFn, '/api/auth/login', {
      json: { username: viewer.username, password: 'nope' },
      ip: '198.51.100.77',
    });
    expect(wrong.status).toBe(401);
    const slug = `audit-${unique()}`;
    const body = { title: 'Audit me', slug, content: '<p>a</p>', author: 'A' };
    const { article } = await json<{ article: { id: number } }>(
      await call(adminNews, '/api/admin/news', { json: body, cookie: editor.cookie }),
    );
    await call(adminNews, `/api/admin/news/${article.id}`, {
      method: 'PUT',
      json: { ...body, isPublished: true },
      cookie: editor.cookie,
    });
    await call(adminNews, `/api/admin/news/${article.id}`, {
      method: 'PUT',
      json: { ...body, isPublished: false },
      cookie: editor.cookie,
    });
    await call(adminNews, `/api/admin/news/${article.id}`, { method: 'DELETE', cookie: editor.cookie });
    await call(trashFn, `/api/admin/trash/article/${article.id}/restore`, {
      method: 'POST',
      cookie: admin.cookie,
    });
    await call(adminSocial, '/api/admin/social-media-links/1', {
      method: 'PUT',
      json: { url: 'https://facebook.com/avery', handle: 'avery', isActive: true, displayOrder: 1 },
      cookie: editor.cookie,
    });
    await call(adminMetrics, '/api/admin/metrics/1', {
      method: 'PUT',
      json: { currentValue: 5, targetValue: 10, label: 'Volunteers' },
      cookie: admin.cookie,
    });
    await call(adminInbox, '/api/admin/volunteers?format=csv', { cookie: editor.cookie });
    const made = await json<{ user: { id: number } }>(
      await call(adminUsers, '/api/admin/users', {
        json: {
          username: `new${unique()}`.slice(0, 30),
          email: `n${unique()}@example.org`,
          password: 'secret-pass',
          role: 'viewer',
        },
        cookie: admin.cookie,
      }),
    );
    await call(adminUsers, `/api/admin/users/${made.user.id}`, {
      method: 'PUT',
      json: { role: 'editor' },
      cookie: admin.cookie,
    });
    await call(adminUsers, `/api/admin/users/${made.user.id}`, {
      method: 'PUT',
      json: { isActive: false },
      cookie: admin.cookie,
    });
    await call(adminUsers, `/api/admin/users/${made.user.id}`, { method: 'DELETE', cookie: admin.cookie });
    await call(logoutFn, '/api/auth/logout', { method: 'POST', cookie: viewer.cookie });

    const page = await activity(admin.cookie);
    const mine = page.entries.filter((e) => e.seq > start).reverse();
    const summary = mine.map((e) => `${e.actorName} ${e.kind}`);
    // A refused sign-in is not an entry of its own: it is counted per source and window, and the window's
    // one entry is written when it closes (docs/decisions/154-audit-trail.md; tests/api/audit-integrity.test.ts).
    expect(summary).toEqual([
      `${editor.username} article.create`,
      `${editor.username} article.publish`,
      `${editor.username} article.unpublish`,
      `${editor.username} article.delete`,
      `${admin.username} article.restore`,
      `${editor.username} social.update`,
      `${admin.username} metric.update`,
      `${editor.username} inbox.export`,
      `${admin.username} user.create`,
      `${admin.username} user.update`,
      `${admin.username} user.deactivate`,
      `${admin.username} user.delete`,
      `${viewer.username} auth.sign_out`,
    ]);
    const roleChange = mine.find((e) => e.kind === 'user.update')!;
    expect(roleChange.details).toMatchObject({ roleBefore: 'viewer', roleAfter: 'editor' });
    expect(mine.find((e) => e.kind === 'user.delete')!.details).toMatchObject({ roleBefore: 'editor' });
    expect(mine.find((e) => e.kind === 'inbox.export')!.target).toMatchObject({ label: 'volunteers' });
    expect(mine.some((e) => e.kind === 'auth.sign_in_failed')).toBe(false);

    // Filters: person, kind, date range.
    const byEditor = await activity(admin.cookie, `&actor=${editor.user.id}`);
    expect(byEditor.entries.every((e) => e.actorId === editor.user.id)).toBe(true);
    expect(byEditor.total).toBe(7);
    const publishes = await activity(admin.cookie, '&kind=article.publish');
    expect(publishes.entries.every((e) => e.kind === 'article.publish')).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect((await activity(admin.cookie, `&from=${today}&to=${today}`)).total).toBe(page.total);
    expect((await activity(admin.cookie, '&from=2001-01-01&to=2001-01-02')).total).toBe(0);

    const csv = await call(activityFn, '/api/admin/activity?format=csv', { cookie: admin.cookie });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(
      /attachment; filename="activity-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'time_utc,time_utc_local,person,person_id,action,kind,target_type,target_id,target,details,ip,seq,hash',
    );
    expect(lines.length - 1).toBe(page.total);
    for (const e of mine)
      expect(lines.some((l) => l.includes(`,${e.kind},`) && l.includes(e.actorName))).toBe(true);
    expect((await verifyChain()).ok).toBe(true);
  });

  it('a sign-in is recorded for the person; the viewer and editor cannot read the trail', async () => {
    const admin = await signedIn('admin');
    const viewer = await signedIn('viewer');
    const page = await activity(admin.cookie, `&actor=${viewer.user.id}&kind=auth.sign_in`);
    expect(page.total).toBe(1);
    for (const c of [viewer.cookie, (await signedIn('editor')).cookie])
      expect((await call(activityFn, '/api/admin/activity', { cookie: c })).status).toBe(403);
  });

  it('is tamper-evident: an edited, removed or reordered entry breaks the chain', async () => {
    setStoreFactory(() => new MemoryKV());
    try {
      for (let i = 0; i < 5; i++)
        await appendAudit({ kind: 'auth.sign_in', actor: { id: 1, username: 'a' }, ip: 'x' });
      expect(await verifyChain()).toEqual({ ok: true, entries: 5 });
      const k = 'chain/0000000003';
      const cur = (await kv('audit').get<AuditEntry>(k))!;
      await kv('audit').put(k, { ...cur.value, actorName: 'someone else' });
      expect(await verifyChain()).toMatchObject({ ok: false, brokenAt: 3, reason: 'entry altered' });
      await kv('audit').put(k, cur.value);
      await kv('audit').delete('chain/0000000005');
      expect(await verifyChain()).toMatchObject({ ok: false, reason: 'entries missing at the end' });
    } finally {
      setStoreFactory(null);
    }
  });

  it('concurrent writers never share a position and the chain holds (atomic store)', async () => {
    setStoreFactory(() => new MemoryKV());
    try {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          appendAudit({ kind: 'article.update', actor: { id: i + 1, username: `u${i}` }, ip: 'x' }),
        ),
      );
      const report = await verifyChain();
      expect(report).toEqual({ ok: true, entries: 40 });
      expect((await matchingKeys({})).length).toBe(40);
    } finally {
      setStoreFactory(null);
    }
  });

  it('concurrent writers never share a position and the chain holds (production path, SDK-like fake service)', async () => {
    const fake = await useFakeService();
    try {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          appendAudit({ kind: 'article.update', actor: { id: i + 1, username: `u${i}` }, ip: 'x' }),
        ),
      );
      expect(await verifyChain()).toEqual({ ok: true, entries: 40 });
      expect((await matchingKeys({})).length).toBe(40);
      // The writers really raced for positions (412s), and nothing read eventually-consistent data.
      console.info(
        `[figures] audit: 40 concurrent appends, ${fake.service.stats.preconditionFailed} lost claims retried`,
      );
      expect(fake.service.stats.eventualReads).toBe(0);
    } finally {
      await fake.stop();
    }
  });

  it('pages through thousands of entries from key names alone (measured, not asserted)', async () => {
    setStoreFactory(() => new MemoryKV());
    try {
      const t0 = Date.now();
      const day = Date.parse('2030-06-01T00:00:00Z');
      for (let i = 0; i < 5000; i++)
        await appendAudit(
          {
            kind: i % 3 ? 'article.update' : 'auth.sign_in',
            actor: { id: (i % 3) + 1, username: `u${i % 3}` },
            ip: 'x',
          },
          new Date(day + i * 60_000),
        );
      const writeMs = Date.now() - t0;
      const { auditPage } = await import('../../src/lib/server/audit/audit.ts');
      const q = { page: 1, pageSize: 50, format: 'json' as const };
      const t1 = Date.now();
      const first = await auditPage(q);
      const last = await auditPage({ ...q, page: 100 });
      const filtered = await auditPage({
        ...q,
        actor: 2,
        kind: 'article.update',
        from: '2030-06-02',
        to: '2030-06-02',
      });
      const readMs = Date.now() - t1;
      console.log(`[audit paging] 5000 entries: written in ${writeMs} ms; 3 pages read in ${readMs} ms`);
      expect(first.total).toBe(5000);
      expect(first.entries[0]!.seq).toBe(5000);
      expect(last.entries.at(-1)!.seq).toBe(1);
      expect(filtered.entries.every((e) => e.actorId === 2 && e.at.startsWith('2030-06-02'))).toBe(true);
      expect(filtered.total).toBe(480);
      expect(
        rangePrefix(Date.parse('2030-06-02T00:00:00Z'), Date.parse('2030-06-02T23:59:59.999Z')).length,
      ).toBeGreaterThan('log/'.length + 3);
    } finally {
      setStoreFactory(null);
    }
  });
});

describe('two-factor sign-in', () => {
  /** Turns two-factor on (it needs the password: docs/decisions/160-staff-sign-in-and-sessions.md); enabling re-issues the caller's cookie. */
  async function enrol(u: {
    cookie: string;
    password: string;
  }): Promise<{ secret: string; codes: string[]; cookie: string }> {
    const setup = await json<{ secret: string; otpauthUri: string }>(
      await call(twoFactorFn, '/api/auth/two-factor/setup', { method: 'POST', cookie: u.cookie }),
    );
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.otpauthUri).toContain(`secret=${setup.secret}`);
    const enable = await call(twoFactorFn, '/api/auth/two-factor/enable', {
      json: { password: u.password, code: totpCode(setup.secret) },
      cookie: u.cookie,
    });
    expect(enable.status).toBe(200);
    const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(enable);
    u.cookie = sessionCookie(enable);
    return { secret: setup.secret, codes: recoveryCodes, cookie: u.cookie };
  }

  const login = (username: string, password: string, ip = '192.0.2.90') =>
    call(loginFn, '/api/auth/login', { json: { username, password }, ip });
  const pendingCookie = (res: Response) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith('twofactor='))!
      .split(';')[0]!;

  it('with two-factor on, the password alone gives no session; a code works once; a recovery code works once', async () => {
    const u = await signedIn('editor');
    const { secret, codes } = await enrol(u);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // Stored hashed: no code and no secret in the store in clear.
    const stored = JSON.stringify(await kv('auth').get(`2fa/${u.user.id}`));
    for (const c of codes) expect(stored).not.toContain(c);
    expect(stored).not.toContain(secret);

    const first = await login(u.username, u.password);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({ twoFactorRequired: true });
    expect(first.headers.getSetCookie().some((c) => c.startsWith('session='))).toBe(false);
    const pending = pendingCookie(first);
    // The pending cookie is not a session.
    expect(
      (await call(meFn, '/api/auth/me', { cookie: pending.replace('twofactor=', 'session=') })).status,
    ).toBe(401);
    expect(
      (await call(twoFactorFn, '/api/auth/two-factor/verify', { json: { code: '000000' }, cookie: pending }))
        .status,
    ).toBe(401);

    // A fresh code (the enrolment code's step is already spent): next step.
    const code = totpCode(secret, Date.now() + 30_000);
    const ok = await call(twoFactorFn, '/api/auth/two-factor/verify', { json: { code }, cookie: pending });
    expect(ok.status).toBe(200);
    const session = sessionCookie(ok);
    expect((await call(meFn, '/api/auth/me', { cookie: session })).status).toBe(200);
    const again = await call(twoFactorFn, '/api/auth/two-factor/verify', {
      json: { code },
      cookie: pendingCookie(await login(u.username, u.password)),
    });
    expect(again.status).toBe(401);

    const p2 = pendingCookie(await login(u.username, u.password));
    expect(
      (
        await call(twoFactorFn, '/api/auth/two-factor/verify', {
          json: { recoveryCode: codes[0]!.toUpperCase() },
          cookie: p2,
        })
      ).status,
    ).toBe(200);
    const p3 = pendingCookie(await login(u.username, u.password));
    expect(
      (
        await call(twoFactorFn, '/api/auth/two-factor/verify', {
          json: { recoveryCode: codes[0] },
          cookie: p3,
        })
      ).status,
    ).toBe(401);
    const status = await json<{ twoFactor: { enabled: boolean; recoveryCodesLeft: number } }>(
      await call(meFn, '/api/auth/me', { cookie: session }),
    );
    expect(status.twoFactor).toMatchObject({ enabled: true, recoveryCodesLeft: 9 });
  });

  it('the code step is rate limited like the password', async () => {
    const u = await signedIn('viewer');
    const { secret } = await enrol(u);
    const pending = pendingCookie(await login(u.username, u.password, '192.0.2.91'));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await call(twoFactorFn, '/api/auth/two-factor/verify', {
            json: { code: '000000' },
            cookie: pending,
            ip: '192.0.2.91',
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const right = await call(twoFactorFn, '/api/auth/two-factor/verify', {
      json: { code: totpCode(secret, Date.now() + 30_000) },
      cookie: pending,
      ip: '192.0.2.91',
    });
    expect(right.status).toBe(429);
  });

  it('turning it off needs the current password and a code', async () => {
    const u = await signedIn('editor');
    const { secret } = await enrol(u);
    const code = totpCode(secret, Date.now() + 30_000);
    expect(
      (
        await call(twoFactorFn, '/api/auth/two-factor/disable', {
          json: { password: 'wrong', code },
          cookie: u.cookie,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(twoFactorFn, '/api/auth/two-factor/disable', {
          json: { password: u.password },
          cookie: u.cookie,
        })
      ).status,
    ).toBe(400);
    const off = await call(twoFactorFn, '/api/auth/two-factor/disable', {
      json: { password: u.password, code },
      cookie: u.cookie,
    });
    expect(off.status).toBe(200);
    expect(
      (await login(u.username, u.password)).headers.getSetCookie().some((c) => c.startsWith('session=')),
    ).toBe(true);
  });

  it('an admin can require it for admins: an un-enrolled admin is sent to enrolment; an admin can reset a member (audited)', async () => {
    const boss = await signedIn('admin');
    await enrol(boss);
    const other = await signedIn('admin');
    const member = await signedIn('editor');
    await enrol(member);
    try {
      expect(
        (
          await call(adminTwoFactorFn, '/api/admin/two-factor', {
            method: 'PUT',
            json: { requireForAdmins: true, requireForAllStaff: false },
            cookie: boss.cookie,
          })
        ).status,
      ).toBe(200);
      const blocked = await call(adminNews, '/api/admin/news', { cookie: other.cookie });
      expect(blocked.status).toBe(403);
      expect(await json(blocked)).toMatchObject({ twoFactorSetupRequired: true });
      const me = await json<{ twoFactor: { required: boolean; enabled: boolean } }>(
        await call(meFn, '/api/auth/me', { cookie: other.cookie }),
      );
      expect(me.twoFactor).toEqual({ required: true, enabled: false, recoveryCodesLeft: 0 });
      // Editors are not covered by "admins only".
      expect(
        (await call(adminNews, '/api/admin/news', { cookie: (await signedIn('editor')).cookie })).status,
      ).toBe(200);
      // Enrolment is open to the blocked admin, and then everything else is.
      await enrol(other);
      expect((await call(adminNews, '/api/admin/news', { cookie: other.cookie })).status).toBe(200);

      const versionBefore = (await getUser(member.user.id))!.tokenVersion;
      const reset = await call(adminTwoFactorFn, `/api/admin/users/${member.user.id}/two-factor`, {
        method: 'DELETE',
        cookie: boss.cookie,
      });
      expect(reset.status).toBe(200);
      expect((await getUser(member.user.id))!.tokenVersion).toBeGreaterThan(versionBefore);
      const log = await activity(boss.cookie, '&kind=auth.two_factor_reset');
      expect(log.entries[0]).toMatchObject({ actorName: boss.username, target: { label: member.username } });
    } finally {
      await call(adminTwoFactorFn, '/api/admin/two-factor', {
        method: 'PUT',
        json: { requireForAdmins: false, requireForAllStaff: false },
        cookie: boss.cookie,
      });
    }
  });
});
