import type { ArticleInput } from '../../lib/schemas/article.ts';

/** The staff-only preview page (src/pages/admin/preview.astro). */
export const PREVIEW_PATH = '/admin/preview';

/**
 * Opens the preview of an article as it is in the form (saved or not) in a
 * new tab: a same-origin form POST, so the unsaved text never travels in a URL.
 */
export function openPreview(article: ArticleInput): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = PREVIEW_PATH;
  form.target = '_blank';
  form.hidden = true;
  const field = document.createElement('input');
  field.type = 'hidden';
  field.name = 'article';
  field.value = JSON.stringify(article);
  form.append(field);
  document.body.append(form);
  form.submit();
  form.remove();
}
