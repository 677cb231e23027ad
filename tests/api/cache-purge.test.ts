import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as adminDonations from '../../netlify/functions/admin-donations.mts';
import * as adminEvents from '../../netlify/functions/admin-events.mts';
import * as adminMetrics from '../../netlify/functions/admin-metrics.mts';
import * as adminMilestones from '../../netlify/functions/admin-milestones.mts';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as revisionsFn from '../../netlify/functions/admin-revisions.mts';
import * as adminSocial from '../../netlify/functions/admin-social-media-links.mts';
import * as trashFn from '../../netlify/functions/admin-trash.mts';
import * as adminGoals from '../../netlify/functions/admin-volunteer-goals.mts';
import {
  CACHE_TAGS,
  purgeTags,
  setCachePurger,
  type CacheTag,
} from '../../src/lib/server/content/responses.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

const purgeCache = vi.hoisted(() => vi.fn(async (_: { tags: string[] }) => {}));
vi.mock('@netlify/functions', () => ({ purgeCache }));

/**
 * A staff edit of anything the public sees purges the CDN tag of the public
 * answers that show it (responses.ts, CACHE_TAGS), so voters never wait out
 * the CDN's 30 s for an edit. Every edit below goes through its real handler;
 * a recording purger stands in for Netlify's purge API.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let editor: string;
let admin: string;
const purged: CacheTag[][] = [];
const record = (tags: CacheTag[]): Promise<void> => {
  purged.push(tags);
  return Promise.resolve();
};

beforeAll(async () => {
  blobs = await startBlobs();
  editor = (await signedIn('editor')).cookie;
  admin = (await signedIn('admin')).cookie;
  setCachePurger(record);
});
afterAll(async () => {
  setCachePurger(null);
  await blobs.stop();
});
afterEach(() => {
  purged.length = 0;
});

const unique = () => Math.random().toString(36).slice(2, 8);

async function ok(res: Promise<Response>, status = 200): Promise<Record<string, unknown>> {
  const r = await res;
  const body = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(body)).toBe(status);
  return body;
}

/** Runs one edit and returns what it purged. */
async function purgesOf(edit: () => Promise<unknown>): Promise<CacheTag[][]> {
  purged.length = 0;
  await edit();
  return [...purged];
}

const article = (slug: string, over: Record<string, unknown> = {}) => ({
  title: 'Purge me',
  slug,
  content: '<p>a</p>',
  author: 'Campaign Team',
  isPublished: true,
  ...over,
});

const event = (over: Record<string, unknown> = {}) => ({
  title: 'Town Hall',
  description: 'Open to everyone.',
  location: 'Gentilly',
  eventDate: '2099-10-01',
  startTime: '18:00',
  eventType: 'town_hall',
  isPublic: true,
  ...over,
});

describe('every staff edit of a public resource purges its tag', () => {
  it('articles: create, update, delete, restore from trash, restore a revision -> "news"', async () => {
    const slug = `purge-${unique()}`;
    let id = 0;
    expect(
      await purgesOf(async () => {
        const body = await ok(
          call(adminNews, '/api/admin/news', { json: article(slug), cookie: editor }),
          201,
        );
        id = (body.article as { id: number }).id;
      }),
    ).toEqual([[CACHE_TAGS.news]]);
    expect(
      await purgesOf(() =>
        ok(
          call(adminNews, `/api/admin/news/${id}`, {
            method: 'PUT',
            json: article(slug, { title: 'Edited' }),
            cookie: editor,
          }),
        ),
      ),
    ).toEqual([[CACHE_TAGS.news]]);
    expect(
      await purgesOf(() =>
        ok(
          call(revisionsFn, `/api/admin/news/${id}/revisions/1/restore`, { method: 'POST', cookie: editor }),
        ),
      ),
    ).toEqual([[CACHE_TAGS.news]]);
    expect(
      await purgesOf(() =>
        ok(call(adminNews, `/api/admin/news/${id}`, { method: 'DELETE', cookie: editor })),
      ),
    ).toEqual([[CACHE_TAGS.news]]);
    expect(
      await purgesOf(() =>
        ok(call(trashFn, `/api/admin/trash/article/${id}/restore`, { method: 'POST', cookie: admin })),
      ),
    ).toEqual([[CACHE_TAGS.news]]);
  });

  it('events: create, update, delete, restore from trash, restore a revision -> "events"', async () => {
    let id = 0;
    expect(
      await purgesOf(async () => {
        const body = await ok(call(adminEvents, '/api/admin/events', { json: event(), cookie: editor }), 201);
        id = (body.event as { id: number }).id;
      }),
    ).toEqual([[CACHE_TAGS.events]]);
    expect(
      await purgesOf(() =>
        ok(
          call(adminEvents, `/api/admin/events/${id}`, {
            method: 'PUT',
            json: event({ title: 'Moved' }),
            cookie: editor,
          }),
        ),
      ),
    ).toEqual([[CACHE_TAGS.events]]);
    expect(
      await purgesOf(() =>
        ok(
          call(revisionsFn, `/api/admin/events/${id}/revisions/1/restore`, {
            method: 'POST',
            cookie: editor,
          }),
        ),
      ),
    ).toEqual([[CACHE_TAGS.events]]);
    expect(
      await purgesOf(() =>
        ok(call(adminEvents, `/api/admin/events/${id}`, { method: 'DELETE', cookie: editor })),
      ),
    ).toEqual([[CACHE_TAGS.events]]);
    expect(
      await purgesOf(() =>
        ok(call(trashFn, `/api/admin/trash/event/${id}/restore`, { method: 'POST', cookie: admin })),
      ),
    ).toEqual([[CACHE_TAGS.events]]);
  });

  it.each([
    [
      'a social link -> "social-media-links"',
      () =>
        call(adminSocial, '/api/admin/social-media-links/1', {
          method: 'PUT',
          json: { url: 'https://facebook.com/avery', handle: 'avery', isActive: true, displayOrder: 1 },
          cookie: editor,
        }),
      CACHE_TAGS.social,
    ],
    [
      'a metric -> "campaign-metrics"',
      () =>
        call(adminMetrics, '/api/admin/metrics/1', {
          method: 'PUT',
          json: { currentValue: 5, targetValue: 10, label: 'Volunteers' },
          cookie: admin,
        }),
      CACHE_TAGS.metrics,
    ],
    [
      'a volunteer goal -> "campaign-metrics"',
      () =>
        call(adminGoals, '/api/admin/volunteer-goals/1', {
          method: 'PUT',
          json: {
            currentCount: 3,
            targetCount: 15,
            deadline: '2030-01-06',
            description: 'Recruits',
            priority: 'high',
          },
          cookie: admin,
        }),
      CACHE_TAGS.metrics,
    ],
    [
      'a milestone -> "campaign-metrics"',
      () =>
        call(adminMilestones, '/api/admin/milestones/1', {
          method: 'PUT',
          json: { currentCount: 3, label: 'Supporters' },
          cookie: admin,
        }),
      CACHE_TAGS.metrics,
    ],
    [
      'the donation goal -> "donation-goal"',
      () =>
        call(adminDonations, '/api/admin/donations/goal', {
          method: 'PUT',
          json: { enabled: true, targetDollars: 1000, label: 'Push', since: '2025-09-01' },
          cookie: admin,
        }),
      CACHE_TAGS.donationGoal,
    ],
  ])('%s', async (_name, edit, tag) => {
    expect(await purgesOf(() => ok(edit()))).toEqual([[tag]]);
  });

  it('a refused edit purges nothing', async () => {
    const viewer = (await signedIn('viewer')).cookie;
    const res = await call(adminMetrics, '/api/admin/metrics/1', {
      method: 'PUT',
      json: { currentValue: 5, targetValue: 10, label: 'Volunteers' },
      cookie: viewer,
    });
    expect(res.status).toBe(403);
    expect(purged).toEqual([]);
  });
});

describe('the purge adapter', () => {
  afterEach(() => {
    process.env.APP_ENV = 'test';
    resetEnv();
    purgeCache.mockReset();
  });

  it("production calls Netlify's purge API with the tags; a failed purge never fails the edit", async () => {
    setCachePurger(null);
    try {
      process.env.APP_ENV = 'production';
      resetEnv();
      await purgeTags(CACHE_TAGS.news);
      expect(purgeCache).toHaveBeenCalledWith({ tags: ['news'] });
      purgeCache.mockRejectedValueOnce(new Error('purge API down'));
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      await expect(purgeTags(CACHE_TAGS.events)).resolves.toBeUndefined();
      expect(error).toHaveBeenCalled();
      error.mockRestore();
    } finally {
      setCachePurger(record);
    }
  });

  it('locally (no CDN) nothing is called', async () => {
    setCachePurger(null);
    try {
      await purgeTags(CACHE_TAGS.news);
      expect(purgeCache).not.toHaveBeenCalled();
    } finally {
      setCachePurger(record);
    }
  });
});
