import { z } from './zod.ts';
import { fieldMask, PUBLIC_FIELDS } from './public-fields.ts';
import { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters, text, optionalUrl } from './fields.ts';
import { LANGS } from '../lang.ts';
import { ARTICLE_CATEGORIES } from './category.ts';
import {
  sourceHash,
  translationSource,
  translationsInput,
  translationsOf,
  translationStatus,
  upToDate,
  type TranslationLang,
  type TranslationStatus,
} from './translation.ts';

/** Spec section 5: lowercase; any character outside a-z, 0-9 and hyphen becomes a hyphen. */
export function slugify(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

export const ARTICLE_MESSAGES = {
  missingTitle: 'Missing required fields',
  missingDescription: 'Please fill in title, slug, content, and author.',
  /** A Spanish version needs its own title, slug and content (docs/decisions/166-spanish.md). */
  missingTranslation: 'Please fill in the Spanish title, slug and content.',
  category: `Choose one of: ${ARTICLE_CATEGORIES.join(', ')}`,
} as const;

const missing = ARTICLE_MESSAGES.missingDescription;

/** Required article text: a missing field gets the same message as an empty one. */
const requiredArticleText = (max: number, multiline = false, message: string = missing) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => hasNoControlCharacters(v, { multiline }), CONTROL_CHARACTERS_MESSAGE)
    .min(1, message)
    .max(max, `Must be at most ${max} characters`);

const articleSlug = (message: string = missing) =>
  z
    .string({ error: message })
    .trim()
    .transform(slugify)
    .pipe(z.string().min(1, message).max(120, 'Slug must be at most 120 characters'));

/**
 * An article's version in another language (docs/decisions/166-spanish.md), as the dashboard sends
 * it: its own title, slug (unique among every article's slugs in every
 * language), excerpt and content (sanitised exactly like the English).
 */
export const ArticleTranslationInputSchema = z.strictObject({
  title: requiredArticleText(200, false, ARTICLE_MESSAGES.missingTranslation),
  slug: articleSlug(ARTICLE_MESSAGES.missingTranslation),
  content: requiredArticleText(100_000, true, ARTICLE_MESSAGES.missingTranslation),
  excerpt: text(500, { multiline: true }).default(''),
  upToDate,
});
export type ArticleTranslationInput = z.input<typeof ArticleTranslationInputSchema>;

/** What the admin form sends on create and update. */
export const ArticleInputSchema = z.strictObject({
  title: requiredArticleText(200),
  slug: articleSlug(),
  /** Rich text (HTML); sanitised on the server when saved. */
  content: requiredArticleText(100_000, true),
  excerpt: text(500, { multiline: true }).default(''),
  /** An uploaded image path (/api/uploads/...) or an http(s) URL. */
  imageUrl: z
    .union([z.string().regex(/^\/api\/uploads\/[A-Za-z0-9._-]+$/), optionalUrl])
    .optional()
    .transform((v) => v ?? ''),
  author: requiredArticleText(120),
  /**
   * The badge (docs/decisions/161-content-and-editor.md): one of the four categories, or null for the spec's rule
   * from the author. Left out on an update, the stored one stays.
   */
  category: z.enum(ARTICLE_CATEGORIES, { error: ARTICLE_MESSAGES.category }).nullable().optional(),
  isPublished: z.boolean().default(false),
  /** ISO date-time; a future value schedules the article. Null: set when first published. */
  publishedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Optimistic concurrency: the updatedAt the editor loaded; a mismatch is a 409. */
  expectedUpdatedAt: z.string().max(40).optional(),
  /** Versions in other languages: a new one, null to remove it; left out, the stored one stays. */
  translations: translationsInput(ArticleTranslationInputSchema),
});
export type ArticleInput = z.input<typeof ArticleInputSchema>;

/** A stored translation: the text, and which English it was made from. */
export const ArticleTranslationSchema = z.object({
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  content: z.string(),
  ...translationSource,
});
export type ArticleTranslation = z.infer<typeof ArticleTranslationSchema>;

export const ArticleSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  content: z.string(),
  excerpt: z.string(),
  imageUrl: z.string(),
  author: z.string(),
  /** The badge staff chose; null (and in records from before the field) for the spec's rule from the author. */
  category: z.enum(ARTICLE_CATEGORIES).nullable().optional(),
  slug: z.string(),
  isPublished: z.boolean(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Versions in other languages (docs/decisions/166-spanish.md), each with the fingerprint of the English it follows. */
  translations: translationsOf(ArticleTranslationSchema),
});
export type Article = z.infer<typeof ArticleSchema>;

/** The fingerprint of the English an article's translations follow: title, excerpt and content. */
export const articleSourceHash = (a: Pick<Article, 'title' | 'excerpt' | 'content'>): string =>
  sourceHash([a.title, a.excerpt, a.content]);

/** missing, current, or stale (the English changed since the translation was made or confirmed). */
export function articleTranslationStatus(
  a: Pick<Article, 'title' | 'excerpt' | 'content' | 'translations'>,
  lang: TranslationLang,
): TranslationStatus {
  return translationStatus(a.translations[lang], articleSourceHash(a));
}

/** Every slug an article answers to: its own, then its translations'. */
export function articleSlugs(a: Pick<Article, 'slug' | 'translations'>): string[] {
  return [a.slug, ...Object.values(a.translations).map((t) => t.slug)];
}

/**
 * What anyone may see of a published article: GET /api/news, RSS, the sitemap
 * and the article page use exactly these fields (PUBLIC_FIELDS.article, shared
 * with the zod-free projection). Internal: when the draft was created (a public
 * article always has a publishedAt, see toPublicArticle) and the stored
 * translations (what the fingerprints are, when they were made); a translation
 * reaches the public only as the resolved title, slug, excerpt and content of
 * the language asked for.
 */
export const PublicArticleSchema = ArticleSchema.pick(fieldMask(PUBLIC_FIELDS.article)).extend({
  publishedAt: z.string(),
  /**
   * The language of title, slug, excerpt and content: the one asked for when
   * the article has a version in it, else English (a Spanish list shows
   * English articles that have no Spanish version; the page marks them lang="en").
   */
  lang: z.enum(LANGS),
  /** The article's slug in each language (its own where translated, else the English one): hreflang, the switcher. */
  slugs: z.record(z.enum(LANGS), z.string()),
});
export type PublicArticle = z.infer<typeof PublicArticleSchema>;

/** GET /api/news. */
export const PublicNewsResponseSchema = z.object({ articles: z.array(PublicArticleSchema) });

/** Spec section 9: category badge from the author text (zod-free module, shared with the blog island). */
export { articleCategory, categoryFor } from './category.ts';

/** Public when published and its publish time has come (zod-free module, used by the public news function). */
export { isArticlePublic } from './article-rules.ts';
