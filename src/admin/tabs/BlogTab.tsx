import { useState } from 'react';
import { toast } from 'sonner';
import { isArticlePublic, type Article } from '../../lib/schemas/article.ts';
import { ARTICLES_PAGE_SIZE, useArticles } from '../api/get-articles.ts';
import { useDeleteArticle } from '../api/delete-article.ts';
import { Badge } from '../components/Badge.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { ArticleModal } from '../modals/ArticleModal.tsx';
import { articleForm, newArticleForm, type ArticleForm } from '../forms/article-form.ts';
import { formatDateTime } from '../forms/datetime.ts';
import { failureDescription } from '../forms/errors.ts';

export function BlogTab({ canEdit }: { canEdit: boolean }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useArticles(page);
  const [editing, setEditing] = useState<ArticleForm | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const remove = useDeleteArticle();
  const articles = data?.articles ?? [];
  useClampPage(page, setPage, data?.total, data?.pageSize ?? ARTICLES_PAGE_SIZE);

  async function onDelete(a: Article) {
    setDeleting(a.id);
    try {
      await remove(a.id);
      toast.success('Article deleted successfully!');
    } catch (err) {
      toast.error('Failed to delete article', { description: failureDescription(err, 'Please try again.') });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section aria-labelledby="blog-heading">
      <div className="section-head">
        <div>
          <h2 id="blog-heading">Blog Management</h2>
          <p className="muted">{data ? `${data.total} article${data.total === 1 ? '' : 's'}` : '\u00a0'}</p>
        </div>
        {canEdit ? (
          <button type="button" className="btn btn--primary" onClick={() => setEditing(newArticleForm())}>
            Add Article
          </button>
        ) : null}
      </div>
      <ListState isLoading={isLoading} error={error} empty={articles.length === 0}>
        <ul className="records" aria-label="Articles">
          {articles.map((a) => (
            <li key={a.id} className="record">
              <div className="record__main">
                <div className="record__title-row">
                  <h3 className="record__title">{a.title}</h3>
                  <Badge variant={a.isPublished ? 'success' : 'secondary'}>
                    {a.isPublished ? 'Published' : 'Draft'}
                  </Badge>
                  {a.isPublished && !isArticlePublic(a) ? <Badge variant="outline">Scheduled</Badge> : null}
                </div>
                {a.excerpt ? <p className="record__text">{a.excerpt}</p> : null}
                <dl className="meta">
                  <div>
                    <dt>Slug</dt>
                    <dd>{a.slug}</dd>
                  </div>
                  <div>
                    <dt>Author</dt>
                    <dd>{a.author}</dd>
                  </div>
                  <div>
                    <dt>Publish date</dt>
                    <dd>{a.publishedAt ? formatDateTime(a.publishedAt) : 'Not yet'}</dd>
                  </div>
                </dl>
              </div>
              {canEdit ? (
                <div className="record__actions">
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    onClick={() => setEditing(articleForm(a))}
                  >
                    Edit<span className="sr-only"> {a.title}</span>
                  </button>
                  <button
                    type="button"
                    className="btn btn--destructive btn--sm"
                    disabled={deleting === a.id}
                    onClick={() => void onDelete(a)}
                  >
                    Delete<span className="sr-only"> {a.title}</span>
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        <Pager
          label="Articles"
          page={page}
          pageSize={data?.pageSize ?? ARTICLES_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
      {editing ? <ArticleModal key={editing.id} initial={editing} onClose={() => setEditing(null)} /> : null}
    </section>
  );
}
