import { DEFAULT_LANG, LANGS, type Lang } from '../lang.ts';
import type { Article, PublicArticle } from './article.ts';
import type { CampaignEvent, PublicEvent } from './event.ts';
import type { Metric, Milestone, PublicProgress, VolunteerGoal } from './progress.ts';
import type { PublicSocialLink, SocialLink } from './social.ts';

/**
 * What anyone may see of each stored record, declared once as field lists,
 * free of zod: the public read functions project with `pick` (they must not
 * load the schema library, docs/decisions.md "Functions that start fast"), and
 * the Public*Schema in each schema module is built from the same list
 * (`Schema.pick(fieldMask(...))`), so the two cannot disagree
 * (tests/unit/public-fields.test.ts compares them on random records). A field
 * reaches a public answer only by being listed here.
 */
export const PUBLIC_FIELDS = {
  /** Internal: when the draft was created. */
  article: [
    'id',
    'title',
    'content',
    'excerpt',
    'imageUrl',
    'author',
    'slug',
    'isPublished',
    'publishedAt',
    'updatedAt',
  ],
  /**
   * Internal: the staff's notes, the contact email (often a staffer's own
   * address; no public page shows it) and when the record was created.
   */
  event: [
    'id',
    'title',
    'description',
    'location',
    'eventDate',
    'startTime',
    'endTime',
    'eventType',
    'isPublic',
    'maxAttendees',
    'registrationRequired',
    'registrationUrl',
    'updatedAt',
  ],
  /** What the footer needs. Internal: isActive, displayOrder, who edited the link last and when. */
  socialLink: ['id', 'platform', 'url', 'handle'],
  /** Progress figures: everything displayed; internal is when staff last edited each record. */
  metric: ['id', 'currentValue', 'targetValue', 'label', 'sublabel', 'description', 'trend', 'isPublic'],
  goal: ['id', 'currentCount', 'targetCount', 'deadline', 'description', 'priority'],
  milestone: ['id', 'currentCount', 'targetCount', 'label', 'description', 'isPublic'],
} as const satisfies {
  article: readonly (keyof Article)[];
  event: readonly (keyof CampaignEvent)[];
  socialLink: readonly (keyof SocialLink)[];
  metric: readonly (keyof Metric)[];
  goal: readonly (keyof VolunteerGoal)[];
  milestone: readonly (keyof Milestone)[];
};

type PublicMetric = PublicProgress['metrics'][number];
type PublicVolunteerGoal = PublicProgress['goals'][number];
type PublicMilestone = PublicProgress['milestones'][number];

/** A zod `pick` mask for a field list: `{ id: true, ... }`. */
export function fieldMask<K extends string>(keys: readonly K[]): Record<K, true> {
  return Object.fromEntries(keys.map((k) => [k, true])) as Record<K, true>;
}

/** The listed fields of `record`, and nothing else (a missing one stays missing). */
export function pick<T extends object, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (k in record) out[k] = record[k];
  return out;
}

/**
 * A record's stored translation in `lang` (issue 12), if it has one. Records
 * from before translations have no `translations` at all. Zod-free on purpose
 * (schemas/translation.ts holds the zod side).
 */
function translationIn<T>(translations: Partial<Record<string, T>> | undefined, lang: Lang): T | undefined {
  return lang === DEFAULT_LANG ? undefined : translations?.[lang];
}

/**
 * The public projection of an article in a language: publishedAt filled from
 * createdAt for old records, and the translation's title, slug, excerpt and
 * content in place of the English when there is one (a stale one too: it is
 * still the best there is; the dashboard flags it). `lang` says which language
 * the text is in; `slugs` gives the article's slug in every language.
 */
export function toPublicArticle(a: Article, lang: Lang = DEFAULT_LANG): PublicArticle {
  const t = translationIn(a.translations, lang);
  const slugs = Object.fromEntries(
    LANGS.map((l) => [l, translationIn(a.translations, l)?.slug ?? a.slug]),
  ) as PublicArticle['slugs'];
  return {
    ...pick(a, PUBLIC_FIELDS.article),
    ...(t ? { title: t.title, slug: t.slug, excerpt: t.excerpt, content: t.content } : {}),
    lang: t ? lang : DEFAULT_LANG,
    slugs,
    publishedAt: a.publishedAt ?? a.createdAt,
  };
}

/**
 * The public projection of an event in a language: the translation's title
 * and description in place of the English when there is one (an empty Spanish
 * description falls back to the English).
 */
export function toPublicEvent(e: CampaignEvent, lang: Lang = DEFAULT_LANG): PublicEvent {
  const t = translationIn(e.translations, lang);
  return {
    ...pick(e, PUBLIC_FIELDS.event),
    ...(t ? { title: t.title, description: t.description || e.description } : {}),
    lang: t ? lang : DEFAULT_LANG,
  };
}

/** What an already projected article or event may carry besides its record's public fields. */
const PUBLIC_ARTICLE_KEYS = [
  ...PUBLIC_FIELDS.article,
  'lang',
  'slugs',
] as const satisfies readonly (keyof PublicArticle)[];
const PUBLIC_EVENT_KEYS = [...PUBLIC_FIELDS.event, 'lang'] as const satisfies readonly (keyof PublicEvent)[];

export const toPublicSocialLink = (l: SocialLink | PublicSocialLink): PublicSocialLink =>
  pick(l as SocialLink, PUBLIC_FIELDS.socialLink);

export const toPublicMetric = (m: Metric): PublicMetric => pick(m, PUBLIC_FIELDS.metric);
export const toPublicGoal = (g: VolunteerGoal): PublicVolunteerGoal => pick(g, PUBLIC_FIELDS.goal);
export const toPublicMilestone = (m: Milestone): PublicMilestone => pick(m, PUBLIC_FIELDS.milestone);

/**
 * A projection `publicJson` applies to an answer before it leaves: a zod
 * response schema is one (its `parse` strips unlisted keys), and so is each
 * zod-free projection below, used by the public read functions.
 */
export interface Projection<In, Out> {
  parse(data: In): Out;
}

export const PUBLIC_NEWS: Projection<{ articles: PublicArticle[] }, { articles: PublicArticle[] }> = {
  parse: ({ articles }) => ({ articles: articles.map((a) => pick(a, PUBLIC_ARTICLE_KEYS)) }),
};
export const PUBLIC_EVENTS: Projection<{ events: PublicEvent[] }, { events: PublicEvent[] }> = {
  parse: ({ events }) => ({ events: events.map((e) => pick(e, PUBLIC_EVENT_KEYS)) }),
};
export const PUBLIC_SOCIAL_LINKS: Projection<{ links: PublicSocialLink[] }, { links: PublicSocialLink[] }> = {
  parse: ({ links }) => ({ links: links.map(toPublicSocialLink) }),
};
export const PUBLIC_PROGRESS: Projection<PublicProgress, PublicProgress> = {
  parse: ({ metrics, goals, milestones }) => ({
    metrics: metrics.map((m) => toPublicMetric(m as Metric)),
    goals: goals.map((g) => toPublicGoal(g as VolunteerGoal)),
    milestones: milestones.map((m) => toPublicMilestone(m as Milestone)),
  }),
};
