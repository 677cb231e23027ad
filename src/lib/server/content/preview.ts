import { IDENTITY } from '../../../content/identity.ts';
import { ArticleInputSchema, isArticlePublic, type Article } from '../../schemas/article.ts';
import { categoryFor } from '../../schemas/category.ts';
import { requireUser } from '../auth/session.ts';
import { HttpError, zodToHttp } from '../http.ts';
import { articles } from './articles.ts';
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

type Viewable = Pick<
  Article,
  'title' | 'slug' | 'excerpt' | 'content' | 'imageUrl' | 'author' | 'publishedAt' | 'createdAt'
>;

export function articleViewModel(a: Viewable): ArticleViewModel {
  return {
    title: a.title,
    slug: a.slug,
    excerpt: a.excerpt,
    contentHtml: a.content,
    imageUrl: a.imageUrl || undefined,
    author: a.author,
    category: categoryFor(a.author, IDENTITY.candidateName),
    publishedAt: a.publishedAt ?? a.createdAt,
  };
}

export interface ArticlePreview {
  view: ArticleViewModel;
  state: 'draft' | 'scheduled' | 'published';
  /** When it goes (or went) live; null for a draft without a time. */
  publishAt: string | null;
}

const MAX_PREVIEW_BYTES = 256 * 1024;

/**
 * The staff preview (issue 11): a signed-in staff member sees an article as
 * /article/{slug} will render it, from the form as it is (POST, field
 * `article` = the JSON the editor would save) or from a saved draft (GET
 * ?id=). Content goes through the same sanitiser as a save; nothing is stored.
 * Throws HttpError (401/403/400/404) for the page to show.
 */
export async function articlePreview(req: Request, now = new Date()): Promise<ArticlePreview> {
  await requireUser(req);
  let article: Viewable & { isPublished: boolean };
  if (req.method === 'POST') {
    const declared = Number(req.headers.get('content-length') ?? '0');
    if (declared > MAX_PREVIEW_BYTES) throw new HttpError(413, 'This article is too large to preview');
    const form = await req.formData().catch(() => null);
    const raw = form?.get('article');
    let data: unknown;
    try {
      data = typeof raw === 'string' ? JSON.parse(raw) : null;
    } catch {
      data = null;
    }
    if (!data) throw new HttpError(400, 'Nothing to preview');
    const parsed = ArticleInputSchema.safeParse(data);
    if (!parsed.success) throw zodToHttp(parsed.error);
    const input = parsed.data;
    article = {
      ...input,
      content: sanitizeArticleHtml(input.content),
      publishedAt: input.publishedAt ? new Date(input.publishedAt).toISOString() : null,
      createdAt: now.toISOString(),
    };
  } else {
    const id = Number(new URL(req.url).searchParams.get('id'));
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
