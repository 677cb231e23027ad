import type { ArticleInput } from '../../lib/schemas/article.ts';
import { send } from './shared.ts';

/**
 * Opens the preview of an article as it is in the form (saved or not) in a
 * new tab: POST /api/admin/preview keeps the form for 10 minutes and answers
 * the staff-only page's address. The tab is opened first, inside the click,
 * so popup blockers let it through; it is closed again if the call fails.
 */
export async function openPreview(article: ArticleInput): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await send<{ url: string }>('POST', '/api/admin/preview', article);
    if (tab) tab.location.href = url;
    else window.location.assign(url);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
