/**
 * Spec section 9: the category badge derived from the author text. Kept free of
 * zod so the blog island can use it without shipping the schema library
 * (re-exported from article.ts for existing imports).
 */
export type ArticleCategory = 'Policy' | 'Campaign News' | 'Events' | 'News';

export function categoryFor(author: string, candidateName: string): ArticleCategory {
  if (candidateName && author.includes(candidateName)) return 'Policy';
  if (author.includes('Press')) return 'Campaign News';
  if (author.includes('Campaign')) return 'Events';
  return 'News';
}
