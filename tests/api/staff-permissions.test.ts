import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import * as verificationFn from '../../netlify/functions/admin-activity-verification.mts';
import * as adminTwoFactorFn from '../../netlify/functions/admin-two-factor.mts';
import * as broadcastsFn from '../../netlify/functions/admin-broadcasts.mts';
import * as revisionsFn from '../../netlify/functions/admin-revisions.mts';
import * as trashFn from '../../netlify/functions/admin-trash.mts';
import * as twoFactorFn from '../../netlify/functions/auth-two-factor.mts';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as adminEvents from '../../netlify/functions/admin-events.mts';
import * as previewFn from '../../netlify/functions/admin-preview.mts';
import * as exportsFn from '../../netlify/functions/admin-exports.mts';
import { verifyChain } from '../../src/lib/server/audit/audit.ts';
import { getBroadcast, updateBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { broadcastVersion } from '../../src/lib/server/broadcasts/version.ts';
import { getPolicy } from '../../src/lib/server/auth/two-factor.ts';
import { listTrash } from '../../src/lib/server/content/history.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers, type Who } from '../helpers/content-users.ts';
import { call, type CallOptions } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * The staff publishing endpoints (revisions, trash, activity, two-factor, preview): the permission matrix of every one x {anonymous,
 * viewer, editor, admin, inactive}, bad input (4xx, nothing stored) and a
 * fast-check fuzz. The audit trail has no write route at all.
 */
let stop: () => Promise<void>;
let users: Record<Who, string | undefined>;
let admin: string;

beforeAll(async () => {
  ({ stop } = await startBlobs());
  users = await makeUsers();
  admin = users.admin!;
});
afterAll(() => stop());

const WHO: Who[] = ['anonymous', 'viewer', 'editor', 'admin', 'inactive'];

async function previewDraftCount(): Promise<number> {
  let n = 0;
  for await (const page of kv('meta').keys('preview/')) n += page.length;
  return n;
}
type Mod = Parameters<typeof call>[0];
let n = 0;

async function newArticle(): Promise<number> {
  n += 1;
  const res = await call(adminNews, '/api/admin/news', {
    json: { title: `Perm ${n}`, slug: `staff-perm-${n}`, content: '<p>one</p>', author: 'Press Office' },
    cookie: admin,
  });
  expect(res.status).toBe(201);
  const { article } = (await res.json()) as { article: { id: number } };
  const edit = await call(adminNews, `/api/admin/news/${article.id}`, {
    method: 'PUT',
    json: { title: `Perm ${n} v2`, slug: `staff-perm-${n}`, content: '<p>two</p>', author: 'Press Office' },
    cookie: admin,
  });
  expect(edit.status).toBe(200);
  return article.id;
}

async function newEvent(): Promise<number> {
  const res = await call(adminEvents, '/api/admin/events', {
    json: {
      title: 'Rally',
      location: 'Mid-City',
      eventDate: '2030-01-01',
      startTime: '10:00',
      eventType: 'rally',
    },
    cookie: admin,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { event: { id: number } }).event.id;
}

async function trashedEvent(): Promise<number> {
  const id = await newEvent();
  expect(
    (await call(adminEvents, `/api/admin/events/${id}`, { method: 'DELETE', cookie: admin })).status,
  ).toBe(200);
  return id;
}

const BROADCAST = {
  name: 'Permissions',
  channel: 'email',
  audience: { kind: 'newsletter_subscribers', source: '/nobody-signed-up-here' },
  email: { subject: 'S', html: '<p>Hi</p>' },
};
/** A broadcast in the status the action needs (made by an admin, driven by the job where it must be). */
async function broadcastIn(status: 'draft' | 'ready' | 'sending' | 'paused'): Promise<number> {
  const res = await call(broadcastsFn, '/api/admin/broadcasts', { json: BROADCAST, cookie: admin });
  const id = ((await res.json()) as { broadcast: { id: number } }).broadcast.id;
  if (status === 'draft') return id;
  // Counted by hand (the audience is empty, and sending needs recipients): the status is what is tested.
  // Sending or paused: as if approved (resuming checks the content is the version approved).
  await updateBroadcast(id, (b) => ({
    ...b,
    status,
    approvedVersion: status === 'ready' ? null : broadcastVersion(b),
    run: { ...b.run, recipients: 1, resolved: true },
  }));
  return id;
}
/** The version an admin reviewing the broadcast sees (send and schedule name it). */
const versionOf = async (id: number) => broadcastVersion((await getBroadcast(id))!);

interface Route {
  name: string;
  /** Expected status per role; anonymous and inactive are always 401. */
  want: { viewer: number; editor: number; admin: number };
  req: () => Promise<[Mod, string, CallOptions]> | [Mod, string, CallOptions];
}

const ADMIN_ONLY = { viewer: 403, editor: 403, admin: 200 };
const STAFF_READ = { viewer: 200, editor: 200, admin: 200 };
const EDITORS = { viewer: 403, editor: 200, admin: 200 };

/** A finished (small) Inbox export of the admin's, and its download link. */
async function adminExport(): Promise<{ id: string; url: string }> {
  const res = await call(exportsFn, '/api/admin/exports', {
    json: { source: 'inbox', params: { kind: 'volunteers' } },
    cookie: admin,
  });
  expect(res.status).toBe(201);
  const { job } = (await res.json()) as { job: { id: string; downloads: { url: string }[] } };
  return { id: job.id, url: job.downloads[0]!.url };
}

const ROUTES: Route[] = [
  // Staff exports (docs/decisions/156-exports.md): the Inbox's for editors and admins; a job and
  // its file only for the member who started it (anyone else: 404).
  {
    name: 'POST /api/admin/exports (an Inbox export)',
    want: { viewer: 403, editor: 201, admin: 201 },
    req: () => [exportsFn, '/api/admin/exports', { json: { source: 'inbox', params: { kind: 'contacts' } } }],
  },
  // Every other staff CSV is an export too, with its list's permission
  // (docs/decisions/156-exports.md).
  {
    name: 'POST /api/admin/exports (Activity)',
    want: { viewer: 403, editor: 403, admin: 201 },
    req: () => [exportsFn, '/api/admin/exports', { json: { source: 'activity', params: {} } }],
  },
  {
    name: "POST /api/admin/exports (an event's attendees)",
    want: { viewer: 201, editor: 201, admin: 201 },
    req: async () => [
      exportsFn,
      '/api/admin/exports',
      { json: { source: 'attendees', params: { event: String(await newEvent()) } } },
    ],
  },
  {
    name: 'POST /api/admin/exports (donations)',
    want: { viewer: 201, editor: 201, admin: 201 },
    req: () => [exportsFn, '/api/admin/exports', { json: { source: 'donations', params: {} } }],
  },
  {
    name: 'POST /api/admin/exports (plans to vote)',
    want: { viewer: 403, editor: 201, admin: 201 },
    req: () => [
      exportsFn,
      '/api/admin/exports',
      { json: { source: 'vote_plans', params: { round: 'primary' } } },
    ],
  },
  {
    name: "POST /api/admin/exports (a broadcast's report)",
    want: { viewer: 403, editor: 201, admin: 201 },
    req: async () => [
      exportsFn,
      '/api/admin/exports',
      { json: { source: 'broadcast', params: { broadcast: String(await broadcastIn('draft')) } } },
    ],
  },
  {
    name: "GET /api/admin/exports/:id (the admin's)",
    want: { viewer: 404, editor: 404, admin: 200 },
    req: async () => [exportsFn, `/api/admin/exports/${(await adminExport()).id}`, {}],
  },
  {
    name: "GET /api/admin/exports/:id/download (the admin's, signed)",
    want: { viewer: 404, editor: 404, admin: 200 },
    req: async () => [exportsFn, (await adminExport()).url, {}],
  },
  // Broadcasts (docs/decisions/152-broadcasts.md): editors draft, count and test; admins send.
  {
    name: 'GET /api/admin/broadcasts',
    want: EDITORS,
    req: () => [broadcastsFn, '/api/admin/broadcasts', {}],
  },
  {
    name: 'POST /api/admin/broadcasts',
    want: { viewer: 403, editor: 201, admin: 201 },
    req: () => [broadcastsFn, '/api/admin/broadcasts', { json: BROADCAST }],
  },
  {
    name: 'GET /api/admin/broadcasts/:id',
    want: EDITORS,
    req: async () => [broadcastsFn, `/api/admin/broadcasts/${await broadcastIn('draft')}`, {}],
  },
  {
    name: 'GET /api/admin/broadcasts/:id?format=csv',
    want: EDITORS,
    req: async () => [broadcastsFn, `/api/admin/broadcasts/${await broadcastIn('draft')}?format=csv`, {}],
  },
  {
    name: 'PUT /api/admin/broadcasts/:id',
    want: EDITORS,
    req: async () => [
      broadcastsFn,
      `/api/admin/broadcasts/${await broadcastIn('draft')}`,
      { method: 'PUT', json: BROADCAST },
    ],
  },
  {
    name: 'POST /api/admin/broadcasts/:id/prepare',
    want: EDITORS,
    req: async () => [
      broadcastsFn,
      `/api/admin/broadcasts/${await broadcastIn('draft')}/prepare`,
      { method: 'POST' },
    ],
  },
  {
    name: 'POST /api/admin/broadcasts/:id/test',
    want: EDITORS,
    req: async () => [broadcastsFn, `/api/admin/broadcasts/${await broadcastIn('draft')}/test`, { json: {} }],
  },
  {
    name: 'POST /api/admin/broadcasts/:id/send',
    want: ADMIN_ONLY,
    req: async () => {
      const id = await broadcastIn('ready');
      return [broadcastsFn, `/api/admin/broadcasts/${id}/send`, { json: { version: await versionOf(id) } }];
    },
  },
  {
    name: 'POST /api/admin/broadcasts/:id/schedule',
    want: ADMIN_ONLY,
    req: async () => {
      const id = await broadcastIn('ready');
      const at = new Date(Date.now() + 86_400_000).toISOString();
      return [
        broadcastsFn,
        `/api/admin/broadcasts/${id}/schedule`,
        { json: { at, version: await versionOf(id) } },
      ];
    },
  },
  {
    name: 'POST /api/admin/broadcasts/:id/pause',
    want: ADMIN_ONLY,
    req: async () => [
      broadcastsFn,
      `/api/admin/broadcasts/${await broadcastIn('sending')}/pause`,
      { method: 'POST' },
    ],
  },
  {
    name: 'POST /api/admin/broadcasts/:id/resume',
    want: ADMIN_ONLY,
    req: async () => [
      broadcastsFn,
      `/api/admin/broadcasts/${await broadcastIn('paused')}/resume`,
      { method: 'POST' },
    ],
  },
  {
    name: 'POST /api/admin/broadcasts/:id/cancel',
    want: ADMIN_ONLY,
    req: async () => [
      broadcastsFn,
      `/api/admin/broadcasts/${await broadcastIn('draft')}/cancel`,
      { method: 'POST' },
    ],
  },
  { name: 'GET /api/admin/activity', want: ADMIN_ONLY, req: () => [activityFn, '/api/admin/activity', {}] },
  {
    name: 'GET /api/admin/activity?format=csv',
    want: ADMIN_ONLY,
    req: () => [activityFn, '/api/admin/activity?format=csv', {}],
  },
  {
    name: 'GET /api/admin/activity/verify',
    want: ADMIN_ONLY,
    req: () => [activityFn, '/api/admin/activity/verify', {}],
  },
  {
    name: 'GET /api/admin/activity/verify?full',
    want: ADMIN_ONLY,
    req: () => [activityFn, '/api/admin/activity/verify?full', {}],
  },
  {
    name: 'POST /api/admin/activity/verification (the full verification, a background function)',
    want: { viewer: 403, editor: 403, admin: 202 },
    req: () => [verificationFn, '/api/admin/activity/verification', { method: 'POST' }],
  },
  {
    name: 'GET /api/admin/news/:id/revisions',
    want: STAFF_READ,
    req: async () => [revisionsFn, `/api/admin/news/${await newArticle()}/revisions`, {}],
  },
  {
    name: 'GET /api/admin/news/:id/revisions/:n',
    want: STAFF_READ,
    req: async () => [revisionsFn, `/api/admin/news/${await newArticle()}/revisions/1`, {}],
  },
  {
    name: 'POST /api/admin/news/:id/revisions/:n/restore',
    want: EDITORS,
    req: async () => [
      revisionsFn,
      `/api/admin/news/${await newArticle()}/revisions/1/restore`,
      { method: 'POST' },
    ],
  },
  {
    name: 'GET /api/admin/events/:id/revisions',
    want: STAFF_READ,
    req: async () => [revisionsFn, `/api/admin/events/${await newEvent()}/revisions`, {}],
  },
  {
    name: 'POST /api/admin/events/:id/revisions/:n/restore',
    want: EDITORS,
    req: async () => [
      revisionsFn,
      `/api/admin/events/${await newEvent()}/revisions/1/restore`,
      { method: 'POST' },
    ],
  },
  {
    name: 'POST /api/admin/preview',
    want: { viewer: 403, editor: 201, admin: 201 },
    req: () => [
      previewFn,
      '/api/admin/preview',
      { json: { title: 'Draft', slug: 'draft', content: '<p>d</p>', author: 'A' } },
    ],
  },
  // The Trash is for the editors and admins who may edit what is in it (docs/decisions/161-content-and-editor.md).
  { name: 'GET /api/admin/trash', want: EDITORS, req: () => [trashFn, '/api/admin/trash', {}] },
  {
    name: 'POST /api/admin/trash/:kind/:id/restore',
    want: EDITORS,
    req: async () => [trashFn, `/api/admin/trash/event/${await trashedEvent()}/restore`, { method: 'POST' }],
  },
  {
    name: 'GET /api/admin/two-factor',
    want: ADMIN_ONLY,
    req: () => [adminTwoFactorFn, '/api/admin/two-factor', {}],
  },
  {
    name: 'PUT /api/admin/two-factor',
    want: ADMIN_ONLY,
    req: () => [
      adminTwoFactorFn,
      '/api/admin/two-factor',
      { method: 'PUT', json: { requireForAdmins: false, requireForAllStaff: false } },
    ],
  },
  {
    name: 'DELETE /api/admin/users/:id/two-factor (member without one: 409 for admins)',
    want: { viewer: 403, editor: 403, admin: 409 },
    req: async () => [
      adminTwoFactorFn,
      `/api/admin/users/${(await signedIn('viewer')).user.id}/two-factor`,
      { method: 'DELETE' },
    ],
  },
  {
    name: 'GET /api/auth/two-factor',
    want: STAFF_READ,
    req: () => [twoFactorFn, '/api/auth/two-factor', {}],
  },
  {
    name: 'POST /api/auth/two-factor/setup',
    want: STAFF_READ,
    req: () => [twoFactorFn, '/api/auth/two-factor/setup', { method: 'POST' }],
  },
  {
    name: 'POST /api/auth/two-factor/enable (wrong code: 400 for staff)',
    want: { viewer: 400, editor: 400, admin: 400 },
    req: () => [twoFactorFn, '/api/auth/two-factor/enable', { json: { code: '000000' } }],
  },
  {
    name: 'POST /api/auth/two-factor/disable (not enrolled: 400 for staff)',
    want: { viewer: 400, editor: 400, admin: 400 },
    req: () => [
      twoFactorFn,
      '/api/auth/two-factor/disable',
      { json: { password: 'not the password', code: '000000' } },
    ],
  },
  {
    name: 'POST /api/auth/two-factor/recovery-codes (not enrolled, wrong password: 400 for staff)',
    want: { viewer: 400, editor: 400, admin: 400 },
    req: () => [
      twoFactorFn,
      '/api/auth/two-factor/recovery-codes',
      { json: { password: 'not the password', code: '000000' } },
    ],
  },
];

describe('permission matrix: staff publishing routes x {anonymous, viewer, editor, admin, inactive}', () => {
  for (const route of ROUTES) {
    it(route.name, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const who of WHO) {
        const [mod, path, opts] = await route.req();
        const res = await call(mod, path, { ...opts, cookie: users[who] });
        got[who] = res.status;
        want[who] = who === 'anonymous' || who === 'inactive' ? 401 : route.want[who];
        expect(res.headers.get('cache-control')).toBe('no-store');
        // A refusal says why.
        const error = res.status >= 400 ? ((await res.json()) as { error?: unknown }).error : 'not refused';
        expect(typeof error === 'string' && error !== '', `${res.status}`).toBe(true);
      }
      expect(got).toEqual(want);
    });
  }

  it('POST /api/auth/two-factor/verify without a pending sign-in is 401 for everyone', async () => {
    for (const who of WHO) {
      const res = await call(twoFactorFn, '/api/auth/two-factor/verify', {
        json: { code: '123456' },
        cookie: users[who],
      });
      expect(res.status, who).toBe(401);
    }
  });
});

describe('the audit trail cannot be written, edited or deleted through any endpoint', () => {
  it('every write method on the activity routes is 405 for every role, and the chain is unchanged', async () => {
    await newArticle();
    const before = await verifyChain();
    expect(before.ok).toBe(true);
    for (const path of ['/api/admin/activity', '/api/admin/activity/verify']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        for (const who of WHO) {
          const res = await call(activityFn, path, {
            method,
            json: { seq: 1, kind: 'auth.sign_in' },
            cookie: users[who],
          });
          expect(res.status, `${method} ${path} as ${who}`).toBe(405);
        }
      }
    }
    expect(await verifyChain()).toEqual(before);
  });

  it('editors and viewers cannot read it (403), in any format', async () => {
    for (const who of ['viewer', 'editor'] as const) {
      for (const path of [
        '/api/admin/activity',
        '/api/admin/activity?format=csv',
        '/api/admin/activity/verify',
      ]) {
        const res = await call(activityFn, path, { cookie: users[who] });
        expect(res.status).toBe(403);
        expect(await res.text()).not.toContain('"seq"');
      }
    }
  });
});

describe('bad input: 4xx with { error }, nothing stored', () => {
  it('activity queries', async () => {
    for (const q of [
      'kind=nope',
      'from=2025-13-01',
      'to=yesterday',
      'page=0',
      'pageSize=1000',
      'actor=-1',
      'format=xml',
      'unknown=1',
    ]) {
      const res = await call(activityFn, `/api/admin/activity?${q}`, { cookie: admin });
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    }
  });

  it('revisions and trash', async () => {
    const id = await newArticle();
    expect((await call(revisionsFn, `/api/admin/news/${id}/revisions/99`, { cookie: admin })).status).toBe(
      404,
    );
    expect(
      (
        await call(revisionsFn, `/api/admin/news/${id}/revisions/99/restore`, {
          method: 'POST',
          cookie: admin,
        })
      ).status,
    ).toBe(404);
    expect((await call(revisionsFn, `/api/admin/news/abc/revisions`, { cookie: admin })).status).toBe(404);
    expect((await call(revisionsFn, `/api/admin/news/999999/revisions`, { cookie: admin })).status).toBe(200);
    const trashBefore = (await listTrash()).total;
    expect(
      (await call(trashFn, '/api/admin/trash/user/1/restore', { method: 'POST', cookie: admin })).status,
    ).toBe(404);
    expect(
      (await call(trashFn, '/api/admin/trash/event/987654/restore', { method: 'POST', cookie: admin }))
        .status,
    ).toBe(404);
    expect((await listTrash()).total).toBe(trashBefore);
  });

  it('preview drafts', async () => {
    const before = await previewDraftCount();
    for (const body of [
      {},
      { title: 'x' },
      { title: 'T', slug: 's', content: '', author: 'A' },
      { extra: 1 },
      'x',
    ]) {
      const res = await call(previewFn, '/api/admin/preview', { json: body, cookie: users.editor });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await previewDraftCount()).toBe(before);
  });

  it('two-factor policy and codes', async () => {
    const before = await getPolicy();
    for (const body of [
      { requireForAdmins: 'yes', requireForAllStaff: false },
      { requireForAdmins: true },
      { requireForAdmins: true, requireForAllStaff: false, extra: 1 },
      [],
      null,
    ]) {
      const res = await call(adminTwoFactorFn, '/api/admin/two-factor', {
        method: 'PUT',
        json: body,
        cookie: admin,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const notJson = await call(adminTwoFactorFn, '/api/admin/two-factor', {
      method: 'PUT',
      body: 'requireForAdmins=true',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      cookie: admin,
    });
    expect(notJson.status).toBe(415);
    expect(await getPolicy()).toEqual(before);
    for (const body of [{ code: '12345' }, { code: 'abcdef' }, {}, { code: '123456', x: 1 }]) {
      const res = await call(twoFactorFn, '/api/auth/two-factor/enable', {
        json: body,
        cookie: users.editor,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('fuzz: arbitrary JSON to the new write endpoints', () => {
  it('never answers 5xx, never stores an invalid policy, and the audit chain still verifies', async () => {
    const id = await newArticle();
    const targets: [Mod, string, string][] = [
      [adminTwoFactorFn, '/api/admin/two-factor', 'PUT'],
      [twoFactorFn, '/api/auth/two-factor/enable', 'POST'],
      [twoFactorFn, '/api/auth/two-factor/disable', 'POST'],
      [twoFactorFn, '/api/auth/two-factor/verify', 'POST'],
      [revisionsFn, `/api/admin/news/${id}/revisions/1/restore`, 'POST'],
      [trashFn, '/api/admin/trash/article/1/restore', 'POST'],
      [previewFn, '/api/admin/preview', 'POST'],
    ];
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          requireForAdmins: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
          requireForAllStaff: fc.oneof(fc.boolean(), fc.string()),
          code: fc.oneof(fc.stringMatching(/^\d{6}$/), fc.string()),
          recoveryCode: fc.string({ maxLength: 60 }),
          password: fc.string({ maxLength: 80 }),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom(...targets),
        fc.constantFrom(...WHO),
        async (json, [mod, path, method], who) => {
          const res = await call(mod, path, { method, json, cookie: users[who] });
          expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBeLessThan(500);
          expect(await res.text()).not.toMatch(/at .+\.(ts|js|mts):\d+/);
        },
      ),
      { numRuns: 120 },
    );
    const policy = await getPolicy();
    expect(typeof policy.requireForAdmins).toBe('boolean');
    expect(typeof policy.requireForAllStaff).toBe('boolean');
    expect((await verifyChain()).ok).toBe(true);
  });
});
