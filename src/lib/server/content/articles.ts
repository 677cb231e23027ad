import type { z } from 'zod';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { toPublicArticle } from '../../schemas/public-projections.ts';
import {
  ARTICLE_MESSAGES,
  ArticleSchema,
  articleSlugs,
  articleSourceHash,
  isArticlePublic,
  type Article,
  type ArticleInputSchema,
  type ArticleTranslationInputSchema,
  type PublicArticle,
} from '../../schemas/article.ts';
import { HttpError } from '../errors.ts';
import { ConflictError } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import type { ArticleSummary } from '../../public-lists.ts';
import {
  ARTICLES_LAYOUT,
  newestFirst,
  toPublicArticleSummary,
  type ArticleIndexEntry,
} from './articles-public.ts';
import { Collection } from '../storage/collection.ts';
import { sanitizeArticleHtml } from './sanitize.ts';
import { nextTranslations } from './translations.ts';
import { laterStamp } from './stamps.ts';

export type ArticleData = z.output<typeof ArticleInputSchema>;

export { newsFeed, PUBLIC_NEWS_LIMIT, type ArticleIndexEntry } from './articles-public.ts';
export { laterStamp } from './stamps.ts';

/** The index holds entries, not whole articles (docs/decisions/153-storage.md). */
export const articles = new Collection<Article, ArticleIndexEntry>({
  ...ARTICLES_LAYOUT,
  schema: ArticleSchema,
});

/**
 * Every public article (published, publishedAt <= now), newest first, in
 * `lang` as newsFeed but without the text: for the blog pages, rss and the
 * sitemap. One blob read (the index), however many articles there are.
 */
export async function publicArticles(lang: Lang = DEFAULT_LANG, now = new Date()): Promise<ArticleSummary[]> {
  return (await articles.list())
    .filter((a) => isArticlePublic(a, now))
    .sort(newestFirst)
    .map((a) => toPublicArticleSummary(a, lang));
}

const SLUG_PATTERN = /^[a-z0-9-]{1,120}$/;

/**
 * The public article that answers to `slug` (its English slug or a
 * translation's: slugs are unique across languages), in `lang`; null when
 * unknown, a draft, or scheduled for later. The answer's `slug` is the
 * article's slug in the language of the answer: when it differs from the one
 * asked for (a Spanish slug asked for in English, say), the page redirects to it.
 */
export async function publicArticleBySlug(
  slug: string,
  lang: Lang = DEFAULT_LANG,
  now = new Date(),
): Promise<PublicArticle | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const claim = await kv('articles').get<SlugClaim>(slugKey(slug));
  if (!claim) return null;
  const article = await articles.get(claim.value.id);
  if (!article || !articleSlugs(article).includes(slug) || !isArticlePublic(article, now)) return null;
  return toPublicArticle(article, lang);
}

/** Admin list: every article's index entry, newest first (drafts by creation time). */
export async function adminArticles(): Promise<ArticleIndexEntry[]> {
  return (await articles.list()).sort(newestFirst);
}

/** Whole articles by id, in that order (one read each: a page of the admin list); ones deleted meanwhile are left out. */
export async function articlesById(ids: readonly number[]): Promise<Article[]> {
  return (await Promise.all(ids.map((id) => articles.get(id)))).filter((a): a is Article => a !== null);
}

/** Rebuilds the articles index and feed from the records (npm run reindex); returns how many it holds. */
export function reindexArticles(): Promise<number> {
  return articles.reindex();
}

// ---------------------------------------------------------------------------
// Slug uniqueness: a claim key per slug, created with onlyIfNew.

interface SlugClaim {
  id: number;
  claimedAt: string;
}

const SLUG_TAKEN = 'An article with this slug already exists';
/** A claim whose article was never written (a crashed create) is free again after this. */
const PENDING_CLAIM_MS = 60_000;

const slugKey = (slug: string) => key('slug', slug);

async function claimIsStale(slug: string, claim: SlugClaim, now: Date): Promise<boolean> {
  const owner = await articles.get(claim.id);
  if (owner) return !articleSlugs(owner).includes(slug);
  return now.getTime() - Date.parse(claim.claimedAt) > PENDING_CLAIM_MS;
}

async function claimSlug(slug: string, id: number, now: Date): Promise<void> {
  const store = kv('articles');
  const mine: SlugClaim = { id, claimedAt: now.toISOString() };
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await store.create(slugKey(slug), mine)) return;
    const cur = await store.get<SlugClaim>(slugKey(slug));
    if (!cur) continue; // released in between: try again
    if (cur.value.id === id) return;
    if (!(await claimIsStale(slug, cur.value, now))) break;
    if (await store.replace(slugKey(slug), mine, cur.etag)) return;
  }
  throw new HttpError(409, SLUG_TAKEN, { fields: { slug: SLUG_TAKEN } });
}

async function releaseSlug(slug: string, id: number): Promise<void> {
  const store = kv('articles');
  const cur = await store.get<SlugClaim>(slugKey(slug));
  if (cur?.value.id === id) await store.delete(slugKey(slug));
}

/** Claims each slug (in order; a slug used twice by the article is one claim); on a refusal, releases the ones it took. */
async function claimSlugs(slugs: string[], id: number, now: Date): Promise<void> {
  const taken: string[] = [];
  try {
    for (const slug of new Set(slugs)) {
      await claimSlug(slug, id, now);
      taken.push(slug);
    }
  } catch (err) {
    for (const slug of taken) await releaseSlug(slug, id);
    throw err;
  }
}

async function releaseSlugs(slugs: Iterable<string>, id: number): Promise<void> {
  for (const slug of new Set(slugs)) await releaseSlug(slug, id);
}

// ---------------------------------------------------------------------------
// Admin writes

/** Sanitised article HTML (one allowlist for every language); nothing left is a 400 on `field`. */
async function cleanContent(
  html: string,
  field = 'content',
  message: string = ARTICLE_MESSAGES.missingDescription,
): Promise<string> {
  const clean = await sanitizeArticleHtml(html);
  if (!clean) throw new HttpError(400, message, { fields: { [field]: message } });
  return clean;
}

type TranslationData = z.output<typeof ArticleTranslationInputSchema>;

/** Each translation's content, sanitised like the English (by language). */
type CleanTranslations = Map<string, string>;

/** Sanitises the input's translations first, so one whose HTML sanitises to nothing is a 400 before any write. */
async function checkTranslations(input: ArticleData): Promise<CleanTranslations> {
  const clean: CleanTranslations = new Map();
  for (const [lang, t] of Object.entries(input.translations ?? {}))
    if (t)
      clean.set(
        lang,
        await cleanContent(t.content, `translations.${lang}.content`, ARTICLE_MESSAGES.missingTranslation),
      );
  return clean;
}

/** The stored text of a translation: its content sanitised like the English (checkTranslations). */
const translationText =
  (clean: CleanTranslations) =>
  (t: TranslationData, lang: string): { title: string; slug: string; excerpt: string; content: string } => ({
    title: t.title,
    slug: t.slug,
    excerpt: t.excerpt,
    content: clean.get(lang) ?? t.content,
  });

/** The slugs a save will leave the article with: the English one and each translation's. */
function slugsAfter(before: Pick<Article, 'translations'>, input: ArticleData): string[] {
  const translations = { ...before.translations, ...(input.translations ?? {}) };
  return [input.slug, ...Object.values(translations).flatMap((t) => (t ? [t.slug] : []))];
}

/** `nextTranslations` for an article save: made from (or confirmed against) the English being saved. */
function translationsAfter(
  cur: Pick<Article, 'translations'>,
  input: ArticleData,
  english: Article,
  clean: CleanTranslations,
): Article['translations'] {
  return nextTranslations(cur.translations, input.translations, translationText(clean), {
    sourceHash: articleSourceHash(english),
    sourceUpdatedAt: english.updatedAt,
    updatedAt: english.updatedAt,
  });
}

const iso = (value: string) => new Date(value).toISOString();

export async function createArticle(input: ArticleData, now = new Date()): Promise<Article> {
  const content = await cleanContent(input.content);
  const cleanTranslations = await checkTranslations(input);
  const stamp = now.toISOString();
  return articles.create(async (id) => {
    await claimSlugs(slugsAfter({ translations: {} }, input), id, now);
    const english: Article = {
      id,
      title: input.title,
      content,
      excerpt: input.excerpt,
      imageUrl: input.imageUrl,
      author: input.author,
      category: input.category ?? null,
      slug: input.slug,
      isPublished: input.isPublished,
      publishedAt: input.publishedAt ? iso(input.publishedAt) : input.isPublished ? stamp : null,
      createdAt: stamp,
      updatedAt: stamp,
      translations: {},
    };
    return { ...english, translations: translationsAfter(english, input, english, cleanTranslations) };
  });
}

/**
 * Updates an article. With `expectedUpdatedAt` (what the editor loaded), a
 * record changed since then is refused with 409 instead of overwritten.
 */
export async function updateArticle(id: number, input: ArticleData, now = new Date()): Promise<Article> {
  const before = await articles.get(id);
  if (!before) throw new HttpError(404, 'Article not found');
  if (input.expectedUpdatedAt !== undefined && input.expectedUpdatedAt !== before.updatedAt)
    throw new ConflictError();
  const content = await cleanContent(input.content);
  const cleanTranslations = await checkTranslations(input);
  const oldSlugs = articleSlugs(before);
  const newSlugs = slugsAfter(before, input);
  const added = newSlugs.filter((s) => !oldSlugs.includes(s));
  const dropped = oldSlugs.filter((s) => !newSlugs.includes(s));
  if (added.length) await claimSlugs(added, id, now);
  let after: Article | null;
  try {
    after = await articles.update(id, (cur) => {
      if (input.expectedUpdatedAt !== undefined && input.expectedUpdatedAt !== cur.updatedAt)
        throw new ConflictError();
      // Our slug claims were made against `before`; a concurrent slug move invalidates them.
      if (articleSlugs(cur).join('\n') !== oldSlugs.join('\n')) throw new ConflictError();
      const publishedAt = input.publishedAt
        ? iso(input.publishedAt)
        : (cur.publishedAt ?? (input.isPublished ? now.toISOString() : null));
      const english: Article = {
        ...cur,
        title: input.title,
        content,
        excerpt: input.excerpt,
        imageUrl: input.imageUrl,
        author: input.author,
        // Left out, the stored choice stays (records from before the field have none).
        category: input.category === undefined ? (cur.category ?? null) : input.category,
        slug: input.slug,
        isPublished: input.isPublished,
        publishedAt,
        updatedAt: laterStamp(now, cur.updatedAt),
      };
      return { ...english, translations: translationsAfter(cur, input, english, cleanTranslations) };
    });
  } catch (err) {
    await releaseSlugs(added, id);
    throw err;
  }
  if (!after) {
    await releaseSlugs(added, id);
    throw new HttpError(404, 'Article not found');
  }
  await releaseSlugs(dropped, id);
  return after;
}

export async function deleteArticle(id: number): Promise<void> {
  const removed = await articles.remove(id);
  if (!removed) throw new HttpError(404, 'Article not found');
  await releaseSlugs(articleSlugs(removed), id);
}

/** Seed support: an article with a fixed id (created only if new, slug claimed). */
export async function seedArticle(article: Article, sync = true): Promise<void> {
  for (const slug of new Set(articleSlugs(article)))
    await kv('articles').create(slugKey(slug), {
      id: article.id,
      claimedAt: article.createdAt,
    } satisfies SlugClaim);
  await articles.createWithId({ ...article, content: await sanitizeArticleHtml(article.content) }, sync);
}

/**
 * Trash restore (docs/decisions/161-content-and-editor.md): brings a deleted article back under its old id
 * and slug. 409 when the slug has been taken since, or the id exists again.
 */
export async function restoreDeletedArticle(article: Article, now = new Date()): Promise<Article> {
  await claimSlugs(articleSlugs(article), article.id, now);
  const restored = { ...article, updatedAt: laterStamp(now, article.updatedAt) };
  if (!(await articles.createWithId(restored))) throw new HttpError(409, 'This article already exists');
  return restored;
}
