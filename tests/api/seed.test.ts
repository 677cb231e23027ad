import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as eventsFn from '../../netlify/functions/events.mts';
import * as news from '../../netlify/functions/news.mts';
import * as social from '../../netlify/functions/social-media-links.mts';
import * as campaignMetrics from '../../netlify/functions/campaign-metrics.mts';
import { IDENTITY } from '../../src/content/identity.ts';
import { categoryFor, type Article } from '../../src/lib/schemas/article.ts';
import type { CampaignEvent } from '../../src/lib/schemas/event.ts';
import type { VolunteerGoal } from '../../src/lib/schemas/progress.ts';
import { adminArticles } from '../../src/lib/server/content/articles.ts';
import { adminEvents } from '../../src/lib/server/content/events.ts';
import { adminSocialLinks } from '../../src/lib/server/content/social.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { ensureSeeded, seedContent } from '../../src/lib/server/seed.ts';
import { kv } from '../../src/lib/server/store.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
});
afterAll(async () => {
  process.env.APP_ENV = 'test';
  resetEnv();
  await stop();
});

describe('local seed', () => {
  it('does nothing outside development unless a test asks (ensureSeeded under APP_ENV=test)', async () => {
    await ensureSeeded();
    expect(await kv('meta').get('seeded/v1')).toBeNull();
    expect(await kv('articles').get('record/1')).toBeNull();
  });

  it('seedContent: published articles with varied categories, a draft, upcoming public events and a private one', async () => {
    // Concurrent first calls must not duplicate anything (fixed ids, onlyIfNew).
    await Promise.all([seedContent(), seedContent()]);
    const all = await adminArticles();
    expect(all).toHaveLength(5);
    expect(all.filter((a) => !a.isPublished)).toHaveLength(1);
    const pub = ((await (await call(news, '/api/news')).json()) as { articles: Article[] }).articles;
    expect(pub).toHaveLength(4);
    expect(
      new Set(pub.map((a) => categoryFor(a.author, IDENTITY.candidateName))).size,
    ).toBeGreaterThanOrEqual(3);
    const events = ((await (await call(eventsFn, '/api/events')).json()) as { events: CampaignEvent[] })
      .events;
    expect(events.length).toBeGreaterThanOrEqual(4);
    expect((await adminEvents()).filter((e) => !e.isPublic)).toHaveLength(1);
  });

  it('social links: six platforms, two inactive; progress: the spec weekly goals', async () => {
    const links = await adminSocialLinks();
    expect(links.map((l) => l.platform).sort()).toEqual([
      'facebook',
      'instagram',
      'linkedin',
      'tiktok',
      'x',
      'youtube',
    ]);
    expect(links.filter((l) => !l.isActive)).toHaveLength(2);
    const pub = ((await (await call(social, '/api/social-media-links')).json()) as { links: unknown[] })
      .links;
    expect(pub).toHaveLength(4);
    const progress = (await (await call(campaignMetrics, '/api/campaign-metrics')).json()) as {
      goals: VolunteerGoal[];
      metrics: unknown[];
      milestones: unknown[];
    };
    expect(progress.goals.map((g) => g.targetCount)).toEqual([15, 500, 3, 200]);
    expect(progress.metrics.length).toBeGreaterThan(0);
    expect(progress.milestones.length).toBeGreaterThan(0);
  });

  it('ensureSeeded in development: seeds once, sets the marker, and a new article still gets a fresh id', async () => {
    process.env.APP_ENV = 'development';
    resetEnv();
    await Promise.all([ensureSeeded(), ensureSeeded()]);
    expect(await kv('meta').get('seeded/v1')).not.toBeNull();
    expect(await adminArticles()).toHaveLength(5);
    const { createArticle } = await import('../../src/lib/server/content/articles.ts');
    const { ArticleInputSchema } = await import('../../src/lib/schemas/article.ts');
    const a = await createArticle(
      ArticleInputSchema.parse({
        title: 'New',
        slug: 'new-after-seed',
        content: '<p>x</p>',
        author: 'Press Office',
      }),
    );
    expect(a.id).toBe(6);
  });
});
