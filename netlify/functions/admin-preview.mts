import type { Config } from '@netlify/functions';
import { ArticleInputSchema } from '../../src/lib/schemas/article.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { savePreviewDraft } from '../../src/lib/server/content/preview.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';

/** Article bodies are HTML up to 100,000 characters (as for a save). */
const MAX_ARTICLE_BYTES = 256 * 1024;

/**
 * POST /api/admin/preview (editor, admin): keeps the article form as it is
 * for 10 minutes and answers the staff-only preview page's address
 * (`/admin/preview?draft=…`). Nothing is published or listed.
 */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  const user = await requireUser(req, { permission: 'edit_content' });
  const url = await savePreviewDraft(user, await readJson(req, ArticleInputSchema, MAX_ARTICLE_BYTES));
  return json({ url }, { status: 201 });
});

export const config: Config = { path: '/api/admin/preview' };
