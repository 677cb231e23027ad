import { useState } from 'react';
import { articleTranslationStatus, isArticlePublic, type Article } from '../../lib/schemas/article.ts';
import { TRANSLATION_LANGS } from '../../lib/schemas/translation.ts';
import { ARTICLES_PAGE_SIZE, useArticles } from '../api/get-articles.ts';
import { useDeleteArticle } from '../api/delete-article.ts';
import { Badge } from '../components/Badge.tsx';
import { useClampPage } from '../components/Pager.tsx';
import { RecordList } from '../components/RecordList.tsx';
import { useRestoreFromTrash } from '../api/trash.ts';
import { RowButton } from '../components/RowButton.tsx';
import { TranslationBadge } from '../components/TranslationBadge.tsx';
import { RevisionsDialog } from '../modals/RevisionsDialog.tsx';
import { ArticleModal } from '../modals/ArticleModal.tsx';
import { ArticleTranslationModal } from '../modals/ArticleTranslationModal.tsx';
import { articleForm, newArticleForm, type ArticleForm } from '../forms/article-form.ts';
import { formatDateTime } from '../forms/datetime.ts';

export function BlogTab({ canEdit }: { canEdit: boolean }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useArticles(page);
  const [editing, setEditing] = useState<ArticleForm | null>(null);
  const [history, setHistory] = useState<{ id: number; title: string } | null>(null);
  /** The article whose Spanish version is open (docs/decisions/166-spanish.md). */
  const [translating, setTranslating] = useState<Article | null>(null);
  const remove = useDeleteArticle();
  const restore = useRestoreFromTrash();
  const pageSize = data?.pageSize ?? ARTICLES_PAGE_SIZE;
  useClampPage(page, setPage, data?.total, pageSize);

  return (
    <RecordList
      name="blog"
      heading="Blog Management"
      noun="article"
      label="Articles"
      addLabel="Add Article"
      canEdit={canEdit}
      data={data && { records: data.articles, total: data.total }}
      error={error}
      isLoading={isLoading}
      page={page}
      pageSize={pageSize}
      onPage={setPage}
      onAdd={() => setEditing(newArticleForm())}
      onEdit={(a) => setEditing(articleForm(a))}
      remove={remove}
      undo={(id) => restore('article', id)}
      undone="Article restored"
      deleted="Article deleted successfully!"
      deleteFailed="Failed to delete article"
      extraActions={(r) => (
        <>
          <RowButton
            action="History"
            name={r.title}
            onClick={() => setHistory({ id: r.id, title: r.title })}
          />
          {canEdit ? (
            <RowButton action="Spanish version" name={r.title} onClick={() => setTranslating(r)} />
          ) : null}
        </>
      )}
      renderRecord={(a) => (
        <>
          <div className="record__title-row">
            <h3 className="record__title">{a.title}</h3>
            <Badge variant={a.isPublished ? 'success' : 'secondary'}>
              {a.isPublished ? 'Published' : 'Draft'}
            </Badge>
            {a.isPublished && !isArticlePublic(a) ? <Badge variant="outline">Scheduled</Badge> : null}
            {TRANSLATION_LANGS.map((lang) => (
              <TranslationBadge key={lang} lang={lang} status={articleTranslationStatus(a, lang)} />
            ))}
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
        </>
      )}
    >
      {editing ? <ArticleModal key={editing.id} initial={editing} onClose={() => setEditing(null)} /> : null}
      {translating ? (
        <ArticleTranslationModal
          key={translating.id}
          article={translating}
          lang="es"
          onClose={() => setTranslating(null)}
        />
      ) : null}
      {history ? (
        <RevisionsDialog
          kind="article"
          id={history.id}
          title={history.title}
          canRestore={canEdit}
          onClose={() => setHistory(null)}
        />
      ) : null}
    </RecordList>
  );
}
