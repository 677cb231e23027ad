import { IDENTITY } from '../../content/identity.ts';
import { slugify, type Article, type ArticleInput } from '../../lib/schemas/article.ts';
import { fromLocalInput, toLocalInput } from './datetime.ts';

/** The Add/Edit Article form. `id` 0 is a new record (spec section 4). */
export interface ArticleForm {
  id: number;
  title: string;
  slug: string;
  content: string;
  excerpt: string;
  imageUrl: string;
  author: string;
  isPublished: boolean;
  /** datetime-local value; empty means "when first published". */
  publishedAt: string;
  /** The version loaded into the editor, sent back for the 409 check. */
  updatedAt: string;
}

export function newArticleForm(): ArticleForm {
  return {
    id: 0,
    title: '',
    slug: '',
    content: '',
    excerpt: '',
    imageUrl: '',
    author: IDENTITY.candidateName,
    isPublished: false,
    publishedAt: '',
    updatedAt: '',
  };
}

export function articleForm(a: Article): ArticleForm {
  return {
    id: a.id,
    title: a.title,
    slug: a.slug,
    content: a.content,
    excerpt: a.excerpt,
    imageUrl: a.imageUrl,
    author: a.author,
    isPublished: a.isPublished,
    publishedAt: toLocalInput(a.publishedAt),
    updatedAt: a.updatedAt,
  };
}

/** Slug as typed: normalised on every keystroke (spec section 5). */
export const normaliseSlug = slugify;

/** Spec section 5: title, slug, content and author are required. */
export function hasRequiredArticleFields(
  f: Pick<ArticleForm, 'title' | 'slug' | 'content' | 'author'>,
): boolean {
  return [f.title, slugify(f.slug.trim()), f.content, f.author].every((v) => v.trim().length > 0);
}

export function articlePayload(f: ArticleForm): ArticleInput {
  const payload: ArticleInput = {
    title: f.title.trim(),
    slug: slugify(f.slug.trim()),
    content: f.content,
    excerpt: f.excerpt.trim(),
    imageUrl: f.imageUrl.trim(),
    author: f.author.trim(),
    isPublished: f.isPublished,
    publishedAt: fromLocalInput(f.publishedAt),
  };
  if (f.id && f.updatedAt) payload.expectedUpdatedAt = f.updatedAt;
  return payload;
}
