import type { Config, Context } from '@netlify/functions';
import { ArticleInputSchema } from '../../src/lib/schemas/article.ts';
import { adminArticles, articlesById, createArticle } from '../../src/lib/server/content/articles.ts';
import {
  deleteToTrash,
  recordRevision,
  updateArticleWithHistory,
} from '../../src/lib/server/content/history.ts';
import { articleSaveKind, audit, changedDetail, target } from '../../src/lib/server/audit/audit.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { translationDetail } from '../../src/lib/server/content/translations.ts';
import { pageOf, pageQuery } from '../../src/lib/server/pagination.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';
import { HttpError } from '../../src/lib/server/errors.ts';

/** Article bodies are HTML up to 100,000 characters. */
const MAX_ARTICLE_BYTES = 256 * 1024;

export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  allowMethods(req, ...(hasId ? ['PUT', 'DELETE'] : ['GET', 'POST']));
  if (req.method === 'GET') {
    await requireUser(req);
    // The index holds no text: the page's whole articles are read one by one (at most pageSize reads).
    const page = pageOf('articles', await adminArticles(), pageQuery(new URL(req.url)));
    return json({ ...page, articles: await articlesById(page.articles.map((a) => a.id)) });
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  if (req.method === 'POST') {
    const article = await createArticle(await readJson(req, ArticleInputSchema, MAX_ARTICLE_BYTES));
    await recordRevision('article', article, user, 'create');
    await audit(context, user, 'article.create', target.article(article), {
      ...(article.isPublished ? { published: 'yes' } : {}),
      ...translationDetail(null, article),
    });
    await purgeTags(CACHE_TAGS.news);
    return json({ article }, { status: 201 });
  }
  const id = idFrom(context);
  if (req.method === 'PUT') {
    const input = await readJson(req, ArticleInputSchema, MAX_ARTICLE_BYTES);
    const { before, after: article, revision } = await updateArticleWithHistory(id, input, user);
    const detail = { ...changedDetail(revision.changed), ...translationDetail(before, article) };
    await audit(context, user, articleSaveKind(before, article), target.article(article), detail);
    await purgeTags(CACHE_TAGS.news);
    return json({ article });
  }
  if (req.method === 'DELETE') {
    await audit(context, user, 'article.delete', target.article(await deleteToTrash('article', id, user)));
    await purgeTags(CACHE_TAGS.news);
    return json({ success: true });
  }
  throw new HttpError(405, 'Method not allowed');
});

export const config: Config = { path: ['/api/admin/news', '/api/admin/news/:id'] };
