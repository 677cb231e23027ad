/**
 * Spec section 9: the category badge derived from the author text. Kept free of
 * zod so the blog island can use it without shipping the schema library
 * (re-exported from article.ts for existing imports).
 */
export const ARTICLE_CATEGORIES = ['Policy', 'Campaign News', 'Events', 'News'] as const;
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];

export function categoryFor(author: string, candidateName: string): ArticleCategory {
  if (candidateName && author.includes(candidateName)) return 'Policy';
  if (author.includes('Press')) return 'Campaign News';
  if (author.includes('Campaign')) return 'Events';
  return 'News';
}

/**
 * The badge an article shows (docs/decisions/161-content-and-editor.md): the category staff chose in the editor, else
 * the spec's rule from the author text. Anything else stored (an old or hand-edited record) counts as not chosen.
 */
export function articleCategory(
  a: { author: string; category?: string | null | undefined },
  candidateName: string,
): ArticleCategory {
  const chosen = ARTICLE_CATEGORIES.find((c) => c === a.category);
  return chosen ?? categoryFor(a.author, candidateName);
}
