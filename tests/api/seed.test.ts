import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '../../scripts/dev/blobs-listing.mts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as eventsFn from '../../netlify/functions/events.mts';
import * as news from '../../netlify/functions/news.mts';
import * as social from '../../netlify/functions/social-media-links.mts';
import * as campaignMetrics from '../../netlify/functions/campaign-metrics.mts';
import { IDENTITY } from '../../src/content/identity.ts';
import { categoryFor, type Article } from '../../src/lib/schemas/article.ts';
import type { CampaignEvent } from '../../src/lib/schemas/event.ts';
import { takesRsvps } from '../../src/lib/schemas/rsvp-rules.ts';
import { campaignToday } from '../../src/lib/campaign-time.ts';
import type { VolunteerGoal } from '../../src/lib/schemas/progress.ts';
import { adminArticles } from '../../src/lib/server/content/articles.ts';
import { adminEvents } from '../../src/lib/server/content/events.ts';
import { adminSocialLinks } from '../../src/lib/server/content/social.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { seedContent, seedLocalStore, SEED_MARKER } from '../../scripts/lib/seed.mts';
import { DEV_USERS } from '../../scripts/lib/dev-users.mts';
import { findUserByLogin } from '../../src/lib/server/auth/users.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';

const execFileAsync = promisify(execFile);

// A fresh store for each test: each seeds (or refuses to seed) an empty one, whatever another test seeded.
let stop: () => Promise<void>;
beforeEach(async () => {
  ({ stop } = await startBlobs());
});
afterEach(async () => {
  process.env.APP_ENV = 'test';
  resetEnv();
  await stop();
});

describe('local seed', () => {
  it('refuses production and writes nothing there', async () => {
    process.env.APP_ENV = 'production';
    resetEnv();
    try {
      await expect(seedLocalStore()).rejects.toThrow(/local mode only/);
    } finally {
      process.env.APP_ENV = 'test';
      resetEnv();
    }
    expect(await kv('meta').get(SEED_MARKER)).toBeNull();
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

  it('seedContent: an upcoming event that takes RSVPs on the site, and every event in Spanish too (docs/decisions/164-dev-server-and-local-mode.md)', async () => {
    await seedContent();
    const upcoming = ((await (await call(eventsFn, '/api/events')).json()) as { events: CampaignEvent[] })
      .events;
    const rsvp = upcoming.filter(takesRsvps);
    expect(rsvp.length).toBeGreaterThanOrEqual(1);
    expect(rsvp.every((e) => e.eventDate > campaignToday())).toBe(true);
    for (const e of await adminEvents()) expect(e.translations.es?.title, `event ${e.id}`).toBeTruthy();
    const spanish = (
      (await (await call(eventsFn, '/api/events?lang=es')).json()) as { events: CampaignEvent[] }
    ).events;
    expect(spanish.map((e) => e.title)).not.toEqual(upcoming.map((e) => e.title));
    expect(spanish.every((e) => (e as { lang?: string }).lang === 'es')).toBe(true);
  });

  it('social links: six platforms, two inactive; progress: the spec weekly goals', async () => {
    await seedContent();
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

  it('seedLocalStore: seeds once (concurrent runs too), sets the marker, creates the dev users, and ids continue after it', async () => {
    const outcomes = await Promise.all([seedLocalStore(), seedLocalStore()]);
    expect(outcomes).toContain('seeded');
    expect(await seedLocalStore()).toBe('already seeded');
    expect(await kv('meta').get(SEED_MARKER)).not.toBeNull();
    expect(await adminArticles()).toHaveLength(5);
    for (const u of DEV_USERS) expect((await findUserByLogin(u.username))?.role).toBe(u.role);
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

describe('npm run seed (the script itself)', () => {
  it('seeds a local Blobs directory as the dev server reads it (site "0"), then reports it seeded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seed-script-'));
    try {
      const run = () =>
        execFileAsync(process.execPath, ['scripts/seed.mts'], {
          env: { ...process.env, SEED_DIR: dir, APP_ENV: 'development' },
        });
      expect((await run()).stdout).toMatch(/seed: seeded/);
      expect((await run()).stdout).toMatch(/seed: already seeded/);
      const server = new BlobsServer({ directory: dir, token: 't', logger: () => {} });
      const { port } = await server.start();
      try {
        const url = `http://127.0.0.1:${port}`;
        const users = getStore({
          name: 'users',
          siteID: '0',
          token: 't',
          edgeURL: url,
          uncachedEdgeURL: url,
          consistency: 'strong',
        } as Parameters<typeof getStore>[0]);
        const { blobs } = await users.list();
        expect(blobs.length).toBeGreaterThanOrEqual(DEV_USERS.length);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
