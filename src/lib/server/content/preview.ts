import { IDENTITY } from '../../../content/identity.ts';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isArticlePublic, type Article } from '../../schemas/article.ts';
import { ARTICLE_CATEGORIES, articleCategory } from '../../schemas/category.ts';
import { requireUser } from '../auth/session.ts';
import type { StoredUser } from '../auth/users.ts';
import { HttpError } from '../errors.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { articles, type ArticleData } from './articles.ts';
import { sanitizeArticleHtml } from './sanitize.ts';

/** What ArticleView.astro renders: the public page and the staff preview build it with this one function. */
export interface ArticleViewModel {
  title: string;
  slug: string;
  excerpt: string;
  contentHtml: string;
  imageUrl?: string | undefined;
  author: string;
  category: string;
  publishedAt: string;
}

/** A stored article (publishedAt may be null: falls back to createdAt) or a public one (publishedAt always set). */
type Viewable = Pick<Article, 'title' | 'slug' | 'excerpt' | 'content' | 'imageUrl' | 'author'> & {
  category?: string | null | undefined;
} & ({ publishedAt: string } | Pick<Article, 'publishedAt' | 'createdAt'>);

export function articleViewModel(a: Viewable): ArticleViewModel {
  return {
    title: a.title,
    slug: a.slug,
    excerpt: a.excerpt,
    contentHtml: a.content,
    imageUrl: a.imageUrl || undefined,
    author: a.author,
    category: articleCategory(a, IDENTITY.candidateName),
    publishedAt: a.publishedAt ?? ('createdAt' in a ? a.createdAt : ''),
  };
}

export interface ArticlePreview {
  view: ArticleViewModel;
  state: 'draft' | 'scheduled' | 'published';
  /** When it goes (or went) live; null for a draft without a time. */
  publishAt: string | null;
}

/** A draft preview stays readable this long (a reload of the preview tab works; then it is gone). */
export const PREVIEW_TTL_MS = 10 * 60 * 1000;

const DraftSchema = z.object({
  userId: z.number().int(),
  createdAt: z.string(),
  article: z.object({
    title: z.string(),
    slug: z.string(),
    content: z.string(),
    excerpt: z.string(),
    imageUrl: z.string(),
    author: z.string(),
    category: z.enum(ARTICLE_CATEGORIES).nullable().default(null),
    isPublished: z.boolean(),
    publishedAt: z.string().nullable(),
  }),
});
type Draft = z.infer<typeof DraftSchema>;
const draftKey = (token: string) => key('preview', token);

/**
 * Keeps the form as it is (unsaved edits) for the preview tab: content
 * sanitised as a save would, readable only by the same staff member for
 * PREVIEW_TTL_MS, never published or listed. Answers the preview's address.
 */
export async function savePreviewDraft(
  user: Pick<StoredUser, 'id'>,
  input: ArticleData,
  now = new Date(),
): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  const draft: Draft = {
    userId: user.id,
    createdAt: now.toISOString(),
    article: {
      title: input.title,
      slug: input.slug,
      content: await sanitizeArticleHtml(input.content),
      excerpt: input.excerpt,
      imageUrl: input.imageUrl,
      author: input.author,
      category: input.category ?? null,
      isPublished: input.isPublished,
      publishedAt: input.publishedAt ? new Date(input.publishedAt).toISOString() : null,
    },
  };
  await kv('meta').create(draftKey(token), draft);
  return `/admin/preview?draft=${token}`;
}

async function readDraft(
  token: string,
  user: StoredUser,
  now: Date,
): Promise<Draft['article'] & { createdAt: string }> {
  const gone = new HttpError(404, 'This preview has expired. Press Preview again.');
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) throw gone;
  const r = await kv('meta').get<unknown>(draftKey(token));
  const parsed = r ? DraftSchema.safeParse(r.value) : null;
  if (!parsed?.success || parsed.data.userId !== user.id) throw gone;
  if (now.getTime() - Date.parse(parsed.data.createdAt) > PREVIEW_TTL_MS) {
    await kv('meta').delete(draftKey(token));
    throw gone;
  }
  return { ...parsed.data.article, createdAt: parsed.data.createdAt };
}

/**
 * The staff preview (docs/decisions/161-content-and-editor.md): a signed-in staff member sees an article as
 * /article/{slug} will render it: a saved article by `?id=`, or the form as
 * it was (unsaved edits) by `?draft=` (see savePreviewDraft). Nothing is
 * published. Throws HttpError (401/403/404) for the page to show.
 */
export async function articlePreview(req: Request, now = new Date()): Promise<ArticlePreview> {
  const user = await requireUser(req);
  const params = new URL(req.url).searchParams;
  let article: Viewable & { isPublished: boolean };
  const draft = params.get('draft');
  if (draft !== null) {
    article = await readDraft(draft, user, now);
  } else {
    const id = Number(params.get('id'));
    const found = Number.isSafeInteger(id) && id > 0 ? await articles.get(id) : null;
    if (!found) throw new HttpError(404, 'Article not found');
    article = found;
  }
  const publishAt = article.publishedAt;
  const state = !article.isPublished
    ? 'draft'
    : isArticlePublic({ isPublished: true, publishedAt: publishAt }, now)
      ? 'published'
      : 'scheduled';
  return {
    view: articleViewModel({ ...article, publishedAt: article.publishedAt ?? now.toISOString() }),
    state,
    publishAt,
  };
}
