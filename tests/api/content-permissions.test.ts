import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminEvents from '../../netlify/functions/admin-events.mts';
import * as adminGoals from '../../netlify/functions/admin-volunteer-goals.mts';
import * as adminMetrics from '../../netlify/functions/admin-metrics.mts';
import * as adminMilestones from '../../netlify/functions/admin-milestones.mts';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as adminSocial from '../../netlify/functions/admin-social-media-links.mts';
import * as upload from '../../netlify/functions/upload.mts';
import { ArticleInputSchema } from '../../src/lib/schemas/article.ts';
import { EventInputSchema } from '../../src/lib/schemas/event.ts';
import { createArticle } from '../../src/lib/server/content/articles.ts';
import { createEvent } from '../../src/lib/server/content/events.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers, type Who } from '../helpers/content-users.ts';
import { call, type CallOptions } from '../helpers/http.ts';

let stop: () => Promise<void>;
let users: Record<Who, string | undefined>;

beforeAll(async () => {
  ({ stop } = await startBlobs());
  users = await makeUsers();
});
afterAll(() => stop());

const WHO: Who[] = ['anonymous', 'viewer', 'editor', 'admin', 'inactive'];
let n = 0;
const article = () => ({
  title: 'T',
  slug: `perm-${++n}`,
  content: '<p>c</p>',
  author: 'Press Office',
  isPublished: true,
});
const event = () => ({
  title: 'E',
  location: 'Mid-City',
  eventDate: '2030-01-01',
  startTime: '10:00',
  eventType: 'rally',
});
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Mod = Parameters<typeof call>[0];
interface Route {
  name: string;
  kind: 'read' | 'write';
  ok: number;
  /** Builds the request; may create the record it needs. */
  req: () => Promise<[Mod, string, CallOptions]> | [Mod, string, CallOptions];
}

const ROUTES: Route[] = [
  { name: 'GET /api/admin/news', kind: 'read', ok: 200, req: () => [adminNews, '/api/admin/news', {}] },
  {
    name: 'POST /api/admin/news',
    kind: 'write',
    ok: 201,
    req: () => [adminNews, '/api/admin/news', { method: 'POST', json: article() }],
  },
  {
    name: 'PUT /api/admin/news/:id',
    kind: 'write',
    ok: 200,
    req: async () => {
      const a = await createArticle(ArticleInputSchema.parse(article()));
      return [adminNews, `/api/admin/news/${a.id}`, { method: 'PUT', json: { ...article(), slug: a.slug } }];
    },
  },
  {
    name: 'DELETE /api/admin/news/:id',
    kind: 'write',
    ok: 200,
    req: async () => [
      adminNews,
      `/api/admin/news/${(await createArticle(ArticleInputSchema.parse(article()))).id}`,
      { method: 'DELETE' },
    ],
  },
  {
    name: 'GET /api/admin/events',
    kind: 'read',
    ok: 200,
    req: () => [adminEvents, '/api/admin/events', {}],
  },
  {
    name: 'POST /api/admin/events',
    kind: 'write',
    ok: 201,
    req: () => [adminEvents, '/api/admin/events', { method: 'POST', json: event() }],
  },
  {
    name: 'PUT /api/admin/events/:id',
    kind: 'write',
    ok: 200,
    req: async () => [
      adminEvents,
      `/api/admin/events/${(await createEvent(EventInputSchema.parse(event()))).id}`,
      { method: 'PUT', json: event() },
    ],
  },
  {
    name: 'DELETE /api/admin/events/:id',
    kind: 'write',
    ok: 200,
    req: async () => [
      adminEvents,
      `/api/admin/events/${(await createEvent(EventInputSchema.parse(event()))).id}`,
      { method: 'DELETE' },
    ],
  },
  {
    name: 'GET /api/admin/social-media-links',
    kind: 'read',
    ok: 200,
    req: () => [adminSocial, '/api/admin/social-media-links', {}],
  },
  {
    name: 'PUT /api/admin/social-media-links/:id',
    kind: 'write',
    ok: 200,
    req: () => [
      adminSocial,
      '/api/admin/social-media-links/1',
      { method: 'PUT', json: { url: 'https://facebook.com/x', handle: '', isActive: true, displayOrder: 1 } },
    ],
  },
  {
    name: 'GET /api/admin/metrics',
    kind: 'read',
    ok: 200,
    req: () => [adminMetrics, '/api/admin/metrics', {}],
  },
  {
    name: 'PUT /api/admin/metrics/:id',
    kind: 'write',
    ok: 200,
    req: () => [
      adminMetrics,
      '/api/admin/metrics/1',
      { method: 'PUT', json: { currentValue: 5, targetValue: 10, label: 'Volunteers' } },
    ],
  },
  {
    name: 'GET /api/admin/volunteer-goals',
    kind: 'read',
    ok: 200,
    req: () => [adminGoals, '/api/admin/volunteer-goals', {}],
  },
  {
    name: 'PUT /api/admin/volunteer-goals/:id',
    kind: 'write',
    ok: 200,
    req: () => [
      adminGoals,
      '/api/admin/volunteer-goals/1',
      {
        method: 'PUT',
        json: {
          currentCount: 3,
          targetCount: 15,
          deadline: '2030-01-06',
          description: 'Recruits',
          priority: 'high',
        },
      },
    ],
  },
  {
    name: 'GET /api/admin/milestones',
    kind: 'read',
    ok: 200,
    req: () => [adminMilestones, '/api/admin/milestones', {}],
  },
  {
    name: 'PUT /api/admin/milestones/:id',
    kind: 'write',
    ok: 200,
    req: () => [
      adminMilestones,
      '/api/admin/milestones/1',
      { method: 'PUT', json: { currentCount: 3, label: 'Supporters' } },
    ],
  },
  {
    name: 'POST /api/upload',
    kind: 'write',
    ok: 201,
    req: () => {
      const f = new FormData();
      f.append('image', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'a.png');
      return [upload, '/api/upload', { method: 'POST', body: f }];
    },
  },
];

function expected(route: Route, who: Who): number {
  if (who === 'anonymous' || who === 'inactive') return 401;
  if (who === 'viewer') return route.kind === 'read' ? 200 : 403;
  return route.ok;
}

describe('permission matrix: every content admin route x {anonymous, viewer, editor, admin, inactive}', () => {
  for (const route of ROUTES) {
    it(route.name, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const who of WHO) {
        const [mod, path, opts] = await route.req();
        const res = await call(mod, path, { ...opts, cookie: users[who] });
        got[who] = res.status;
        want[who] = expected(route, who);
        // A refusal says why.
        const error = res.status >= 400 ? ((await res.json()) as { error?: unknown }).error : 'not refused';
        expect(typeof error === 'string' && error !== '', `${who}: ${res.status}`).toBe(true);
      }
      expect(got).toEqual(want);
    });
  }
});
