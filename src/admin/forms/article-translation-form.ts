import {
  articleTranslationStatus,
  slugify,
  type Article,
  type ArticleInput,
} from '../../lib/schemas/article.ts';
import type { TranslationLang, TranslationStatus } from '../../lib/schemas/translation.ts';

/** The Spanish version dialog (docs/decisions/166-spanish.md): the translation's own fields. */
export interface ArticleTranslationForm {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
}

export function articleTranslationForm(a: Article, lang: TranslationLang): ArticleTranslationForm {
  const t = a.translations[lang];
  return { title: t?.title ?? '', slug: t?.slug ?? '', excerpt: t?.excerpt ?? '', content: t?.content ?? '' };
}

/** Has the person changed the translation's text since the dialog opened? */
export function translationEdited(a: Article, lang: TranslationLang, f: ArticleTranslationForm): boolean {
  const before = articleTranslationForm(a, lang);
  return (Object.keys(before) as (keyof ArticleTranslationForm)[]).some(
    (k) => before[k].trim() !== f[k].trim(),
  );
}

export function hasRequiredTranslationFields(f: ArticleTranslationForm): boolean {
  return [f.title, slugify(f.slug.trim()), f.content].every((v) => v.trim().length > 0);
}

/**
 * The save: the article's English exactly as loaded (so the 409 check catches
 * an English edit made meanwhile, and nothing English changes), plus the
 * translation, `upToDate` to confirm it unchanged, or null to remove it.
 */
export function articleTranslationPayload(
  a: Article,
  lang: TranslationLang,
  translation: (ArticleTranslationForm & { upToDate?: boolean }) | null,
): ArticleInput {
  return {
    title: a.title,
    slug: a.slug,
    content: a.content,
    excerpt: a.excerpt,
    imageUrl: a.imageUrl,
    author: a.author,
    isPublished: a.isPublished,
    publishedAt: a.publishedAt,
    expectedUpdatedAt: a.updatedAt,
    translations: {
      [lang]: translation && {
        title: translation.title.trim(),
        slug: slugify(translation.slug.trim()),
        excerpt: translation.excerpt.trim(),
        content: translation.content,
        ...(translation.upToDate ? { upToDate: true } : {}),
      },
    },
  };
}

export { articleTranslationStatus };
export type { TranslationStatus };
