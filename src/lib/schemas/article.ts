import { z } from './zod.ts';
import { fieldMask, PUBLIC_FIELDS } from './public-fields.ts';
import { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters, text, optionalUrl } from './fields.ts';

/** Spec section 5: lowercase; any character outside a-z, 0-9 and hyphen becomes a hyphen. */
export function slugify(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

export const ARTICLE_MESSAGES = {
  missingTitle: 'Missing required fields',
  missingDescription: 'Please fill in title, slug, content, and author.',
} as const;

const missing = ARTICLE_MESSAGES.missingDescription;

/** Required article text: a missing field gets the same message as an empty one. */
const requiredArticleText = (max: number, multiline = false) =>
  z
    .string({ error: missing })
    .trim()
    .refine((v) => hasNoControlCharacters(v, { multiline }), CONTROL_CHARACTERS_MESSAGE)
    .min(1, missing)
    .max(max, `Must be at most ${max} characters`);

/** What the admin form sends on create and update. */
export const ArticleInputSchema = z.strictObject({
  title: requiredArticleText(200),
  slug: z
    .string({ error: missing })
    .trim()
    .transform(slugify)
    .pipe(z.string().min(1, missing).max(120, 'Slug must be at most 120 characters')),
  /** Rich text (HTML); sanitised on the server when saved. */
  content: requiredArticleText(100_000, true),
  excerpt: text(500, { multiline: true }).default(''),
  /** An uploaded image path (/api/uploads/...) or an http(s) URL. */
  imageUrl: z
    .union([z.string().regex(/^\/api\/uploads\/[A-Za-z0-9._-]+$/), optionalUrl])
    .optional()
    .transform((v) => v ?? ''),
  author: requiredArticleText(120),
  isPublished: z.boolean().default(false),
  /** ISO date-time; a future value schedules the article. Null: set when first published. */
  publishedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Optimistic concurrency: the updatedAt the editor loaded; a mismatch is a 409. */
  expectedUpdatedAt: z.string().max(40).optional(),
});
export type ArticleInput = z.input<typeof ArticleInputSchema>;

export const ArticleSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  content: z.string(),
  excerpt: z.string(),
  imageUrl: z.string(),
  author: z.string(),
  slug: z.string(),
  isPublished: z.boolean(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Article = z.infer<typeof ArticleSchema>;

/**
 * What anyone may see of a published article: GET /api/news, RSS, the sitemap
 * and the article page use exactly these fields (PUBLIC_FIELDS.article, shared
 * with the zod-free projection). A public article always has a publishedAt
 * (see toPublicArticle).
 */
export const PublicArticleSchema = ArticleSchema.pick(fieldMask(PUBLIC_FIELDS.article)).extend({
  publishedAt: z.string(),
});
export type PublicArticle = z.infer<typeof PublicArticleSchema>;

/** The public projection: unknown keys stripped, publishedAt filled from createdAt for old records. */
export { toPublicArticle } from './public-fields.ts';

/** GET /api/news. */
export const PublicNewsResponseSchema = z.object({ articles: z.array(PublicArticleSchema) });

/** Spec section 9: category badge from the author text (zod-free module, shared with the blog island). */
export { categoryFor } from './category.ts';

/** Public when published and its publish time has come (zod-free module, used by the public news function). */
export { isArticlePublic } from './article-rules.ts';
