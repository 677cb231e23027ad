import { DEFAULT_LANG, LANGS, type Lang } from '../lang.ts';
import type { Article, PublicArticle } from './article.ts';
import type { CampaignEvent, PublicEvent } from './event.ts';
import type { Metric, Milestone, PublicProgress, VolunteerGoal } from './progress.ts';
import type { PublicSocialLink, SocialLink } from './social.ts';
import { pick, PUBLIC_FIELDS } from './public-fields.ts';

/*
 * The zod-free public projections of stored records (the public read functions must not load the schema library,
 * docs/decisions/162-public-pages-and-performance.md), built from the field lists in public-fields.ts.
 */

/** Each list names only fields its record has (checked here, where the record types are known). */
export type PublicFieldLists = Checked<typeof PUBLIC_FIELDS>;
type Checked<
  T extends {
    article: readonly (keyof Article)[];
    event: readonly (keyof CampaignEvent)[];
    socialLink: readonly (keyof SocialLink)[];
    metric: readonly (keyof Metric)[];
    goal: readonly (keyof VolunteerGoal)[];
    milestone: readonly (keyof Milestone)[];
  },
> = T;

type PublicMetric = PublicProgress['metrics'][number];
type PublicVolunteerGoal = PublicProgress['goals'][number];
type PublicMilestone = PublicProgress['milestones'][number];

/**
 * A record's stored translation in `lang` (docs/decisions/166-spanish.md), if it has one. Records
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

export const NEWS_PROJECTION: Projection<{ articles: PublicArticle[] }, { articles: PublicArticle[] }> = {
  parse: ({ articles }) => ({ articles: articles.map((a) => pick(a, PUBLIC_ARTICLE_KEYS)) }),
};
export const EVENTS_PROJECTION: Projection<{ events: PublicEvent[] }, { events: PublicEvent[] }> = {
  parse: ({ events }) => ({ events: events.map((e) => pick(e, PUBLIC_EVENT_KEYS)) }),
};
export const SOCIAL_LINKS_PROJECTION: Projection<
  { links: PublicSocialLink[] },
  { links: PublicSocialLink[] }
> = {
  parse: ({ links }) => ({ links: links.map(toPublicSocialLink) }),
};
export const PROGRESS_PROJECTION: Projection<PublicProgress, PublicProgress> = {
  parse: ({ metrics, goals, milestones }) => ({
    metrics: metrics.map((m) => toPublicMetric(m as Metric)),
    goals: goals.map((g) => toPublicGoal(g as VolunteerGoal)),
    milestones: milestones.map((m) => toPublicMilestone(m as Milestone)),
  }),
};
