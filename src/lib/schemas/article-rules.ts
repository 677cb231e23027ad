/**
 * Article rules that need no schema library, kept free of zod so the public
 * news function (and any island) can use them without loading it
 * (re-exported from article.ts for existing imports).
 */

/** Public when published and its publish time has come. */
export function isArticlePublic(
  a: { isPublished: boolean; publishedAt?: string | null },
  now = new Date(),
): boolean {
  if (!a.isPublished) return false;
  if (!a.publishedAt) return true;
  return Date.parse(a.publishedAt) <= now.getTime();
}
