import { IDENTITY } from '../../content/identity.ts';
import { slugify, type Article, type ArticleInput } from '../../lib/schemas/article.ts';
import { ARTICLE_CATEGORIES, type ArticleCategory } from '../../lib/schemas/category.ts';
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
  /** The badge chosen; '' for the spec's rule from the author (docs/decisions/161-content-and-editor.md). */
  category: ArticleCategory | '';
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
    category: '',
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
    category: ARTICLE_CATEGORIES.find((c) => c === a.category) ?? '',
    isPublished: a.isPublished,
    publishedAt: toLocalInput(a.publishedAt),
    updatedAt: a.updatedAt,
  };
}

/** Slug as typed: normalised on every keystroke (spec section 5). */
export const normaliseSlug = slugify;

/** The longest slug the server takes (src/lib/schemas/article.ts). */
const SLUG_MAX = 120;

/**
 * The slug suggested from a title while the slug has not been edited by hand:
 * the spec's rule (slugify) on the title with its accents taken off first
 * ("Año Nuevo" gives "ano-nuevo", not "a-o-nuevo"), then no doubled, leading
 * or trailing hyphens, cut at a hyphen to fit the length limit.
 */
export function suggestSlug(title: string): string {
  const plain = title.normalize('NFKD').replace(/\p{M}+/gu, '');
  const slug = slugify(plain).replace(/-{2,}/g, '-').replace(/^-|-$/g, '');
  if (slug.length <= SLUG_MAX) return slug;
  const cut = slug.slice(0, SLUG_MAX);
  return (cut.includes('-') ? cut.slice(0, cut.lastIndexOf('-')) : cut).replace(/-$/, '');
}

type RequiredField = 'title' | 'slug' | 'content' | 'author';

/** What each required field says when it is left empty (the toast keeps spec section 8's wording). */
export const REQUIRED_ARTICLE_FIELDS: Record<RequiredField, string> = {
  title: 'Enter a title.',
  slug: 'Enter a slug: the address of the article, /article/your-slug.',
  content: 'Write the article.',
  author: 'Enter the author.',
};

/** The required fields left empty, each with its message (an empty object: all there). */
export function missingArticleFields(
  f: Pick<ArticleForm, RequiredField>,
): Partial<Record<RequiredField, string>> {
  const value: Record<RequiredField, string> = {
    title: f.title,
    slug: slugify(f.slug.trim()),
    content: f.content,
    author: f.author,
  };
  const out: Partial<Record<RequiredField, string>> = {};
  for (const k of Object.keys(REQUIRED_ARTICLE_FIELDS) as RequiredField[]) {
    if (value[k].trim().length === 0) out[k] = REQUIRED_ARTICLE_FIELDS[k];
  }
  return out;
}

/** Spec section 5: title, slug, content and author are required. */
export function hasRequiredArticleFields(f: Pick<ArticleForm, RequiredField>): boolean {
  return Object.keys(missingArticleFields(f)).length === 0;
}

export function articlePayload(f: ArticleForm): ArticleInput {
  const payload: ArticleInput = {
    title: f.title.trim(),
    slug: slugify(f.slug.trim()),
    content: f.content,
    excerpt: f.excerpt.trim(),
    imageUrl: f.imageUrl.trim(),
    author: f.author.trim(),
    // A draft kept from before the field has none: the rule from the author.
    category: f.category || null,
    isPublished: f.isPublished,
    publishedAt: fromLocalInput(f.publishedAt),
  };
  if (f.id && f.updatedAt) payload.expectedUpdatedAt = f.updatedAt;
  return payload;
}
