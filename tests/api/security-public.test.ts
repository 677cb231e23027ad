/**
 * Every public answer is its entity's public projection.
 * The internal fields are those a full schema has and its Public*Schema
 * leaves out (src/lib/schemas). Each is stored here with a value found
 * nowhere else; then no public endpoint, the .ics feed, RSS or the sitemap may
 * carry that key or that value. (The article page: tests/browser/security.test.ts.)
 */
import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as eventsFn from '../../netlify/functions/events.mts';
import * as newsFn from '../../netlify/functions/news.mts';
import * as socialFn from '../../netlify/functions/social-media-links.mts';
import * as metricsFn from '../../netlify/functions/campaign-metrics.mts';
import { GET as icsFeed } from '../../src/pages/events.ics.ts';
import { GET as rssFeed } from '../../src/pages/rss.xml.ts';
import { GET as sitemap } from '../../src/pages/sitemap.xml.ts';
import {
  ArticleInputSchema,
  ArticleSchema,
  ArticleTranslationSchema,
  PublicArticleSchema,
} from '../../src/lib/schemas/article.ts';
import {
  EventInputSchema,
  EventSchema,
  EventTranslationSchema,
  PublicEventSchema,
} from '../../src/lib/schemas/event.ts';
import {
  MetricSchema,
  MetricUpdateSchema,
  MilestoneSchema,
  PublicMetricSchema,
  PublicMilestoneSchema,
  PublicVolunteerGoalSchema,
  VolunteerGoalSchema,
} from '../../src/lib/schemas/progress.ts';
import {
  PublicSocialLinkSchema,
  SocialLinkSchema,
  SocialLinkUpdateSchema,
} from '../../src/lib/schemas/social.ts';
import { createArticle, updateArticle } from '../../src/lib/server/content/articles.ts';
import { createEvent, updateEvent } from '../../src/lib/server/content/events.ts';
import { updateMetric } from '../../src/lib/server/content/progress.ts';
import { updateSocialLink } from '../../src/lib/server/content/social.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
});
afterAll(() => stop());

/** The fields a full schema has and its public projection leaves out: the ones marked internal. */
const internalFields = (full: z.ZodObject, pub: z.ZodObject) =>
  Object.keys(full.shape).filter((k) => !(k in pub.shape));

const INTERNAL = {
  // A stored translation (docs/decisions/166-spanish.md) reaches the public only as the resolved text: its bookkeeping is internal.
  event: [
    ...internalFields(EventSchema, PublicEventSchema),
    ...internalFields(EventTranslationSchema, PublicEventSchema),
  ],
  article: [
    ...internalFields(ArticleSchema, PublicArticleSchema),
    ...internalFields(ArticleTranslationSchema, PublicArticleSchema),
  ],
  social: internalFields(SocialLinkSchema, PublicSocialLinkSchema),
  metric: internalFields(MetricSchema, PublicMetricSchema),
  goal: internalFields(VolunteerGoalSchema, PublicVolunteerGoalSchema),
  milestone: internalFields(MilestoneSchema, PublicMilestoneSchema),
};

// Values stored in internal fields and nowhere else.
const INTERNAL_STAMP = '2001-02-03T04:05:06.789Z';
const NOTE = 'INTERNAL-NOTE: donor list is in the shared drive';
const CONTACT = 'field-organizer.private@staff.example';
const EDITOR = 'sentinel-staffer';
const SENTINELS = [INTERNAL_STAMP, NOTE, CONTACT, EDITOR];

/** Every object key in a JSON value, however deep. */
function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  return out;
}

const pageContext = (path: string) =>
  ({ site: new URL('http://localhost:4321'), url: new URL(path, 'http://localhost:4321') }) as APIContext;

describe('public answers carry public fields only', () => {
  beforeAll(async () => {
    // An event created long ago (createdAt = the stamp), edited now, with internal notes and contact.
    const input = EventInputSchema.parse({
      title: 'Neighborhood Town Hall',
      description: 'Open to everyone.',
      location: 'Gentilly',
      eventDate: '2099-10-01',
      startTime: '18:00',
      eventType: 'town_hall',
      isPublic: true,
      contactEmail: CONTACT,
      notes: NOTE,
      translations: { es: { title: 'Asamblea comunitaria', description: 'Abierta a todos.' } },
    });
    const created = await createEvent(input, new Date(INTERNAL_STAMP));
    await updateEvent(created.id, { ...input, maxAttendees: 80 });
    // An article drafted long ago (createdAt = the stamp) and edited since.
    const article = ArticleInputSchema.parse({
      title: 'Our plan for the streets',
      slug: 'streets-plan',
      content: '<p>Potholes first.</p>',
      author: 'Press Office',
      isPublished: true,
      publishedAt: '2025-09-01T12:00:00Z',
      translations: {
        es: {
          title: 'Nuestro plan para las calles',
          slug: 'plan-calles',
          content: '<p>Primero los baches.</p>',
        },
      },
    });
    const draft = await createArticle(article, new Date(INTERNAL_STAMP));
    await updateArticle(draft.id, article);
    await updateSocialLink(
      1,
      SocialLinkUpdateSchema.parse({
        url: 'https://facebook.com/avery',
        handle: 'avery',
        isActive: true,
        displayOrder: 2,
      }),
      EDITOR,
      new Date(INTERNAL_STAMP),
    );
    await updateMetric(
      1,
      MetricUpdateSchema.parse({ currentValue: 10, targetValue: 100, label: 'Volunteers', isPublic: true }),
      new Date(INTERNAL_STAMP),
    );
  });

  it('the schemas mark the fields of the issue internal', () => {
    expect(INTERNAL.event).toEqual(expect.arrayContaining(['notes', 'contactEmail', 'translations']));
    expect(INTERNAL.article).toEqual(
      expect.arrayContaining(['translations', 'sourceHash', 'sourceUpdatedAt']),
    );
    expect(INTERNAL.social).toEqual(expect.arrayContaining(['updatedBy']));
  });

  it.each([
    ['/api/events', eventsFn, 'events', INTERNAL.event],
    ['/api/events?lang=es', eventsFn, 'events', INTERNAL.event],
    ['/api/news', newsFn, 'articles', INTERNAL.article],
    ['/api/news?lang=es', newsFn, 'articles', INTERNAL.article],
    ['/api/social-media-links', socialFn, 'links', INTERNAL.social],
    [
      '/api/campaign-metrics',
      metricsFn,
      'metrics',
      [...INTERNAL.metric, ...INTERNAL.goal, ...INTERNAL.milestone],
    ],
  ] as const)('%s: no internal key, no internal value', async (path, mod, listKey, internal) => {
    const res = await call(mod, path);
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text) as Record<string, unknown[]>;
    expect(body[listKey]!.length).toBeGreaterThan(0);
    const keys = keysDeep(body);
    for (const field of internal) expect(keys.has(field), `${path} carries ${field}`).toBe(false);
    for (const value of SENTINELS) expect(text, `${path} carries ${value}`).not.toContain(value);
  });

  it('the events list has the event the blog shows, with what the blog needs', async () => {
    const { events } = (await (await call(eventsFn, '/api/events')).json()) as {
      events: Record<string, unknown>[];
    };
    const e = events.find((x) => x.title === 'Neighborhood Town Hall');
    expect(e).toMatchObject({
      location: 'Gentilly',
      eventDate: '2099-10-01',
      startTime: '18:00',
      isPublic: true,
    });
  });

  it.each([
    ['/events.ics', icsFeed, 'SUMMARY:Neighborhood Town Hall'],
    ['/rss.xml', rssFeed, 'Our plan for the streets'],
    ['/sitemap.xml', sitemap, '<urlset'],
  ] as const)('%s: no internal value', async (path, get, shown) => {
    const res = await get(pageContext(path));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(100);
    for (const value of SENTINELS) expect(text, `${path} carries ${value}`).not.toContain(value);
    expect(text).toContain(shown);
  });
});
