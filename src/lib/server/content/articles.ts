import type { z } from 'zod';
import {
  ARTICLE_MESSAGES,
  ArticleSchema,
  isArticlePublic,
  toPublicArticle,
  type Article,
  type ArticleInputSchema,
  type PublicArticle,
} from '../../schemas/article.ts';
import { HttpError } from '../errors.ts';
import { ConflictError, key, kv } from '../store.ts';
import { ARTICLES_LAYOUT, newestFirst } from './articles-public.ts';
import { Collection } from './collection.ts';
import { sanitizeArticleHtml } from './sanitize.ts';
import { laterStamp } from './stamps.ts';

export type ArticleData = z.output<typeof ArticleInputSchema>;

export { newsFeed, PUBLIC_NEWS_LIMIT } from './articles-public.ts';
export { laterStamp } from './stamps.ts';

export const articles = new Collection<Article>({ ...ARTICLES_LAYOUT, schema: ArticleSchema });

/** Every public article (published, publishedAt <= now), newest first: for rss and the sitemap. */
export async function publicArticles(now = new Date()): Promise<PublicArticle[]> {
  return (await articles.list())
    .filter((a) => isArticlePublic(a, now))
    .sort(newestFirst)
    .map(toPublicArticle);
}

const SLUG_PATTERN = /^[a-z0-9-]{1,120}$/;

/** The public article with this slug, or null (unknown, draft, or scheduled for later). */
export async function publicArticleBySlug(slug: string, now = new Date()): Promise<PublicArticle | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const claim = await kv('articles').get<SlugClaim>(slugKey(slug));
  if (!claim) return null;
  const article = await articles.get(claim.value.id);
  return article?.slug === slug && isArticlePublic(article, now) ? toPublicArticle(article) : null;
}

/** Admin list: every article, newest first (drafts by creation time). */
export async function adminArticles(): Promise<Article[]> {
  return (await articles.list()).sort(newestFirst);
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
  if (owner) return owner.slug !== slug;
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

// ---------------------------------------------------------------------------
// Admin writes

async function cleanContent(html: string): Promise<string> {
  const clean = await sanitizeArticleHtml(html);
  if (!clean) {
    throw new HttpError(400, ARTICLE_MESSAGES.missingDescription, {
      fields: { content: ARTICLE_MESSAGES.missingDescription },
    });
  }
  return clean;
}

const iso = (value: string) => new Date(value).toISOString();

export async function createArticle(input: ArticleData, now = new Date()): Promise<Article> {
  const content = await cleanContent(input.content);
  const stamp = now.toISOString();
  return articles.create(async (id) => {
    await claimSlug(input.slug, id, now);
    return {
      id,
      title: input.title,
      content,
      excerpt: input.excerpt,
      imageUrl: input.imageUrl,
      author: input.author,
      slug: input.slug,
      isPublished: input.isPublished,
      publishedAt: input.publishedAt ? iso(input.publishedAt) : input.isPublished ? stamp : null,
      createdAt: stamp,
      updatedAt: stamp,
    };
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
  const slugChanged = input.slug !== before.slug;
  if (slugChanged) await claimSlug(input.slug, id, now);
  let after: Article | null;
  try {
    after = await articles.update(id, (cur) => {
      if (input.expectedUpdatedAt !== undefined && input.expectedUpdatedAt !== cur.updatedAt)
        throw new ConflictError();
      // Our slug claim was made against `before`; a concurrent slug move invalidates it.
      if (cur.slug !== before.slug) throw new ConflictError();
      const publishedAt = input.publishedAt
        ? iso(input.publishedAt)
        : (cur.publishedAt ?? (input.isPublished ? now.toISOString() : null));
      return {
        ...cur,
        title: input.title,
        content,
        excerpt: input.excerpt,
        imageUrl: input.imageUrl,
        author: input.author,
        slug: input.slug,
        isPublished: input.isPublished,
        publishedAt,
        updatedAt: laterStamp(now, cur.updatedAt),
      };
    });
  } catch (err) {
    if (slugChanged) await releaseSlug(input.slug, id);
    throw err;
  }
  if (!after) {
    if (slugChanged) await releaseSlug(input.slug, id);
    throw new HttpError(404, 'Article not found');
  }
  if (slugChanged) await releaseSlug(before.slug, id);
  return after;
}

export async function deleteArticle(id: number): Promise<void> {
  const removed = await articles.remove(id);
  if (!removed) throw new HttpError(404, 'Article not found');
  await releaseSlug(removed.slug, id);
}

/** Seed support: an article with a fixed id (created only if new, slug claimed). */
export async function seedArticle(article: Article, sync = true): Promise<void> {
  await kv('articles').create(slugKey(article.slug), {
    id: article.id,
    claimedAt: article.createdAt,
  } satisfies SlugClaim);
  await articles.createWithId({ ...article, content: await sanitizeArticleHtml(article.content) }, sync);
}

/**
 * Trash restore (issue 11): brings a deleted article back under its old id
 * and slug. 409 when the slug has been taken since, or the id exists again.
 */
export async function restoreDeletedArticle(article: Article, now = new Date()): Promise<Article> {
  await claimSlug(article.slug, article.id, now);
  const restored = { ...article, updatedAt: laterStamp(now, article.updatedAt) };
  if (!(await articles.createWithId(restored))) throw new HttpError(409, 'This article already exists');
  return restored;
}
