import { lazy, Suspense, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../lib/client/api.ts';
import { LANG_NAMES_FOR_STAFF } from '../../lib/lang-names.ts';
import { ARTICLE_MESSAGES, type Article } from '../../lib/schemas/article.ts';
import type { TranslationLang } from '../../lib/schemas/translation.ts';
import { useUpdateArticle } from '../api/update-article.ts';
import { Dialog } from '../components/Dialog.tsx';
import { TextArea, TextField } from '../components/Field.tsx';
import { TranslationBadge } from '../components/TranslationBadge.tsx';
import {
  articleTranslationForm,
  articleTranslationPayload,
  articleTranslationStatus,
  hasRequiredTranslationFields,
  translationEdited,
} from '../forms/article-translation-form.ts';
import { formatDateTime } from '../forms/datetime.ts';
import { failureDescription, serverFieldErrors } from '../forms/errors.ts';
import { normaliseSlug, suggestSlug } from '../forms/article-form.ts';
import { useFormState } from '../forms/use-form.ts';

const ArticleEditor = lazy(() => import('../editor/ArticleEditor.tsx'));
const FALLBACK = 'Please check your input and try again.';

type Action = 'save' | 'confirm' | 'remove';

/**
 * An article's version in another language (docs/decisions/166-spanish.md): its own title, slug,
 * excerpt and content. When the English changed after the translation was made,
 * the dialog says so; saving edited text, or "Mark as up to date" for text
 * that still fits, makes it current again. The English is sent back as loaded,
 * so an English edit made meanwhile is a 409, never a silent mismatch.
 */
export function ArticleTranslationModal({
  article,
  lang,
  onClose,
}: {
  article: Article;
  lang: TranslationLang;
  onClose: () => void;
}) {
  const { values: f, set, errors, setErrors } = useFormState(articleTranslationForm(article, lang));
  const [busy, setBusy] = useState<Action | null>(null);
  const [uploading, setUploading] = useState(false);
  const update = useUpdateArticle();
  const status = articleTranslationStatus(article, lang);
  const language = LANG_NAMES_FOR_STAFF[lang];
  const existing = article.translations[lang];
  const edited = translationEdited(article, lang, f);
  const id = `article-${lang}`;
  // As for the English (ArticleModal): the slug follows the title until someone types in it.
  const [slugByHand, setSlugByHand] = useState(f.slug !== '');

  async function run(action: Action) {
    if (busy || uploading) return;
    if (action === 'save' && !hasRequiredTranslationFields(f)) {
      toast.error(ARTICLE_MESSAGES.missingTitle, { description: ARTICLE_MESSAGES.missingTranslation });
      return;
    }
    setBusy(action);
    setErrors({});
    try {
      const translation =
        action === 'remove' ? null : { ...f, ...(action === 'confirm' ? { upToDate: true } : {}) };
      await update(article.id, articleTranslationPayload(article, lang, translation));
      toast.success(
        action === 'remove'
          ? `${language} version removed`
          : action === 'confirm'
            ? `${language} version marked as up to date`
            : `${language} version saved`,
      );
      onClose();
    } catch (err) {
      const fields = serverFieldErrors(err);
      // A 409 naming the slug is a taken slug (the English is sent as loaded, so it is the translation's).
      const slugTaken = err instanceof ApiError && err.status === 409 && err.fields.slug;
      setErrors(
        Object.fromEntries(
          Object.entries(slugTaken ? { slug: slugTaken } : fields).map(([k, v]) => [
            k.replace(`translations.${lang}.`, ''),
            v,
          ]),
        ),
      );
      toast.error(`Failed to save the ${language} version`, {
        description: slugTaken || failureDescription(err, FALLBACK),
      });
    } finally {
      setBusy(null);
    }
  }

  const onSubmit = (e: SyntheticEvent) => {
    e.preventDefault();
    void run('save');
  };
  const held = busy !== null || uploading;

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={`${language} version`}
      description={
        <div className="translation-status">
          <p>
            Of <cite>{article.title}</cite> <TranslationBadge lang={lang} status={status} />
          </p>
          {status === 'stale' && existing ? (
            <p className="alert alert--warning" role="status">
              The English changed after this {language} version was made (it follows the English saved{' '}
              {formatDateTime(existing.sourceUpdatedAt)}). Update the {language} text, or mark it as up to
              date if it still says the same.
            </p>
          ) : null}
        </div>
      }
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          {existing ? (
            <button
              type="button"
              className="btn btn--destructive"
              aria-disabled={held}
              onClick={() => void run('remove')}
            >
              {busy === 'remove' ? 'Removing...' : `Remove ${language} version`}
            </button>
          ) : null}
          {status === 'stale' && !edited ? (
            <button
              type="button"
              className="btn btn--secondary"
              aria-disabled={held}
              onClick={() => void run('confirm')}
            >
              {busy === 'confirm' ? 'Saving...' : 'Mark as up to date'}
            </button>
          ) : null}
          <button type="submit" form={`${id}-form`} className="btn btn--primary" aria-disabled={held}>
            {busy === 'save' ? 'Saving...' : `Save ${language} version`}
          </button>
        </>
      }
    >
      <form id={`${id}-form`} onSubmit={onSubmit} noValidate className="form-grid">
        <TextField
          id={`${id}-title`}
          label={`${language} title`}
          required
          value={f.title}
          error={errors.title}
          onChange={(e) => {
            set('title', e.target.value);
            if (!slugByHand) set('slug', suggestSlug(e.target.value));
          }}
          lang={lang}
          data-autofocus
          className="span-2"
        />
        <TextField
          id={`${id}-slug`}
          label={`${language} slug`}
          required
          value={f.slug}
          error={errors.slug}
          hint={`Lowercase letters, digits and hyphens; used in /${lang}/article/…`}
          onChange={(e) => {
            const slug = normaliseSlug(e.target.value);
            setSlugByHand(slug !== '');
            set('slug', slug);
          }}
          className="span-2"
        />
        <TextArea
          id={`${id}-excerpt`}
          label={`${language} excerpt`}
          rows={2}
          value={f.excerpt}
          error={errors.excerpt}
          onChange={(e) => set('excerpt', e.target.value)}
          lang={lang}
          className="span-2"
        />
        <Suspense
          fallback={
            <p className="span-2 muted" role="status">
              Loading the editor…
            </p>
          }
        >
          <ArticleEditor
            id={`${id}-content`}
            label={`${language} content (required)`}
            value={f.content}
            error={errors.content}
            onChange={(html) => set('content', html)}
            onUploading={setUploading}
          />
        </Suspense>
      </form>
    </Dialog>
  );
}
