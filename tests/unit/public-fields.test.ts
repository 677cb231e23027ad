import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ArticleSchema,
  PublicArticleSchema,
  PublicNewsResponseSchema,
} from '../../src/lib/schemas/article.ts';
import { EventSchema, PublicEventsResponseSchema } from '../../src/lib/schemas/event.ts';
import {
  MetricSchema,
  MilestoneSchema,
  PublicProgressResponseSchema,
  VolunteerGoalSchema,
} from '../../src/lib/schemas/progress.ts';
import {
  EVENTS_PROJECTION,
  NEWS_PROJECTION,
  PROGRESS_PROJECTION,
  SOCIAL_LINKS_PROJECTION,
  toPublicArticle,
  toPublicEvent,
} from '../../src/lib/schemas/public-projections.ts';
import { LANGS } from '../../src/lib/lang.ts';
import { ARTICLE_CATEGORIES } from '../../src/lib/schemas/category.ts';
import { PUBLIC_FIELDS } from '../../src/lib/schemas/public-fields.ts';
import { PublicSocialLinksResponseSchema, SocialLinkSchema } from '../../src/lib/schemas/social.ts';

/**
 * The public read functions project with the zod-free field lists; every other
 * public answer uses the Public*Schemas built from the same lists. Both must
 * give the same answer for any stored record, extra keys included.
 */

const iso = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
const extra = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }).map((k) => `x_${k}`),
  fc.oneof(fc.string(), fc.integer()),
  { maxKeys: 3 },
);
const id = fc.integer({ min: 1, max: 1e6 });

const article = fc
  .record({
    id,
    title: fc.string(),
    content: fc.string(),
    excerpt: fc.string(),
    imageUrl: fc.string(),
    author: fc.string(),
    // Chosen, not chosen, or (a record from before the field) absent.
    category: fc.constantFrom(null, undefined, ...ARTICLE_CATEGORIES),
    slug: fc.string(),
    isPublished: fc.boolean(),
    publishedAt: fc.option(iso, { nil: null }),
    createdAt: iso,
    updatedAt: iso,
    // A Spanish version (or none) with its bookkeeping, which is internal.
    translations: fc.oneof(
      fc.constant({}),
      fc.record({
        es: fc.record({
          title: fc.string(),
          slug: fc.string(),
          excerpt: fc.string(),
          content: fc.string(),
          sourceHash: fc.string(),
          sourceUpdatedAt: iso,
          updatedAt: iso,
        }),
      }),
    ),
  })
  .chain((a) => extra.map((x) => ({ ...x, ...a })));

const event = fc
  .record({
    id,
    title: fc.string(),
    description: fc.string(),
    location: fc.string(),
    eventDate: fc.string(),
    startTime: fc.string(),
    endTime: fc.string(),
    eventType: fc.constantFrom('town_hall', 'fundraiser', 'community_event', 'debate', 'rally'),
    isPublic: fc.boolean(),
    maxAttendees: fc.option(fc.integer(), { nil: null }),
    registrationRequired: fc.boolean(),
    registrationUrl: fc.string(),
    contactEmail: fc.string(),
    notes: fc.string(),
    createdAt: iso,
    updatedAt: iso,
    translations: fc.oneof(
      fc.constant({}),
      fc.record({
        es: fc.record({
          title: fc.string(),
          description: fc.string(),
          sourceHash: fc.string(),
          sourceUpdatedAt: iso,
          updatedAt: iso,
        }),
      }),
    ),
  })
  .chain((e) => extra.map((x) => ({ ...x, ...e })));

const link = fc
  .record({
    id,
    platform: fc.constantFrom('facebook', 'x', 'instagram', 'linkedin', 'youtube', 'tiktok'),
    url: fc.string(),
    handle: fc.string(),
    isActive: fc.boolean(),
    displayOrder: fc.integer({ min: 1, max: 10 }),
    updatedBy: fc.string(),
    updatedAt: iso,
  })
  .chain((l) => extra.map((x) => ({ ...x, ...l })));

const metric = fc.record({
  id,
  currentValue: fc.integer(),
  targetValue: fc.integer(),
  label: fc.string(),
  sublabel: fc.string(),
  description: fc.string(),
  trend: fc.string(),
  isPublic: fc.boolean(),
  updatedAt: iso,
});
const goal = fc.record({
  id,
  currentCount: fc.integer(),
  targetCount: fc.integer(),
  deadline: fc.string(),
  description: fc.string(),
  priority: fc.constantFrom('high', 'medium', 'low'),
  updatedAt: iso,
});
const milestone = fc.record({
  id,
  currentCount: fc.integer(),
  targetCount: fc.option(fc.integer(), { nil: null }),
  label: fc.string(),
  description: fc.string(),
  isPublic: fc.boolean(),
  updatedAt: iso,
});

describe('public projections without zod', () => {
  it('every listed field exists on the stored record schema', () => {
    const shapes = {
      article: ArticleSchema.shape,
      event: EventSchema.shape,
      socialLink: SocialLinkSchema.shape,
      metric: MetricSchema.shape,
      goal: VolunteerGoalSchema.shape,
      milestone: MilestoneSchema.shape,
    };
    for (const [name, fields] of Object.entries(PUBLIC_FIELDS))
      for (const f of fields) expect(Object.keys(shapes[name as keyof typeof shapes]), name).toContain(f);
  });

  it('keeps internal fields out', () => {
    expect(Object.keys(PublicArticleSchema.shape)).not.toContain('createdAt');
    for (const internal of ['notes', 'contactEmail', 'createdAt'])
      expect(PUBLIC_FIELDS.event as readonly string[]).not.toContain(internal);
    expect(PUBLIC_FIELDS.socialLink).toEqual(['id', 'platform', 'url', 'handle']);
  });

  it('gives the zod schema parse for any record (news, events, social links, progress)', () => {
    fc.assert(
      fc.property(
        fc.array(article, { maxLength: 3 }),
        fc.array(event, { maxLength: 3 }),
        fc.array(link, { maxLength: 3 }),
        fc.array(metric, { maxLength: 2 }),
        fc.array(goal, { maxLength: 2 }),
        fc.array(milestone, { maxLength: 2 }),
        (articles, events, links, metrics, goals, milestones) => {
          for (const lang of LANGS) {
            for (const a of articles) {
              // The projection as the zod schema states it: the translation's text when there is one.
              const es = (
                a.translations as { es?: { title: string; slug: string; excerpt: string; content: string } }
              ).es;
              const t = lang === 'es' ? es : undefined;
              expect(toPublicArticle(a, lang)).toEqual(
                PublicArticleSchema.parse({
                  ...a,
                  ...(t ? { title: t.title, slug: t.slug, excerpt: t.excerpt, content: t.content } : {}),
                  lang: t ? lang : 'en',
                  slugs: { en: a.slug, es: es?.slug ?? a.slug },
                  publishedAt: a.publishedAt ?? a.createdAt,
                }),
              );
            }
            const news = { articles: articles.map((a) => toPublicArticle(a, lang)) };
            expect(NEWS_PROJECTION.parse(news)).toEqual(PublicNewsResponseSchema.parse(news));
            const list = { events: events.map((e) => toPublicEvent(e, lang)) };
            expect(EVENTS_PROJECTION.parse(list)).toEqual(PublicEventsResponseSchema.parse(list));
            for (const e of list.events) expect(Object.keys(e)).not.toContain('translations');
          }
          expect(SOCIAL_LINKS_PROJECTION.parse({ links: links })).toEqual(
            PublicSocialLinksResponseSchema.parse({ links }),
          );
          const progress = { metrics, goals, milestones };
          expect(PROGRESS_PROJECTION.parse(progress as never)).toEqual(
            PublicProgressResponseSchema.parse(progress),
          );
        },
      ),
    );
  });
});
