import { lazy, Suspense, useState } from 'react';
import { toast } from 'sonner';
import { ARTICLE_MESSAGES } from '../../lib/schemas/article.ts';
import { errorMessageOf } from '../../lib/client/api.ts';
import { useCreateArticle } from '../api/create-article.ts';
import { useUpdateArticle } from '../api/update-article.ts';
import { openPreview } from '../api/preview-article.ts';
import { IMAGE_UPLOAD_FAILED, uploadImage } from '../api/upload-image.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { CheckboxField, SelectField, TextArea, TextField } from '../components/Field.tsx';
import { IDENTITY } from '../../content/identity.ts';
import { ARTICLE_CATEGORIES, categoryFor } from '../../lib/schemas/category.ts';
import {
  articlePayload,
  missingArticleFields,
  normaliseSlug,
  suggestSlug,
  type ArticleForm,
} from '../forms/article-form.ts';
import { failureDescription, serverFieldErrors } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';
import { clearDraft, isDirty, useDraft } from '../forms/use-draft.ts';
import { DraftNotice } from '../components/DraftNotice.tsx';

const FALLBACK = 'Please check your input and try again.';

/** The editor (Tiptap) loads when the first article form opens: the rest of the dashboard does not wait for it. */
const ArticleEditor = lazy(() => import('../editor/ArticleEditor.tsx'));

/** Add (id 0) or edit an article. The caller keys it by record so each opening starts fresh. */
export function ArticleModal({ initial, onClose }: { initial: ArticleForm; onClose: () => void }) {
  const { values: f, set, setValues, errors, setErrors } = useFormState(initial);
  const draftKey = `article.${initial.id}`;
  const dirty = isDirty(f, initial);
  const draft = useDraft(draftKey, f, initial, dirty);
  const [uploading, setUploading] = useState(false);
  const [editorUploading, setEditorUploading] = useState(false);
  const [uploadError, setUploadError] = useState('');
  const create = useCreateArticle();
  const update = useUpdateArticle();
  const isNew = f.id === 0;
  // The slug follows the title until someone types in it (an existing article's slug never moves: its
  // address is already out there). Emptying the slug by hand hands it back to the title.
  const [slugByHand, setSlugByHand] = useState(initial.slug !== '');

  function onTitle(title: string) {
    set('title', title);
    if (!slugByHand) set('slug', suggestSlug(title));
  }

  function onSlug(typed: string) {
    const slug = normaliseSlug(typed);
    setSlugByHand(slug !== '');
    set('slug', slug);
  }

  async function onUpload(file: File | undefined) {
    if (!file) return;
    setUploadError('');
    setUploading(true);
    try {
      set('imageUrl', await uploadImage(file));
    } catch {
      setUploadError(IMAGE_UPLOAD_FAILED);
    } finally {
      setUploading(false);
    }
  }

  function check(): boolean {
    const missing = missingArticleFields(f);
    const first = Object.keys(missing)[0];
    if (!first) return true;
    // Spec section 8's toast, and each empty field marked and named, the first one focused.
    setErrors(missing);
    toast.error(ARTICLE_MESSAGES.missingTitle, { description: ARTICLE_MESSAGES.missingDescription });
    if (first !== 'content') document.getElementById(`article-${first}`)?.focus();
    return false;
  }

  function onError(err: unknown) {
    setErrors(serverFieldErrors(err));
    if (!isNew) {
      toast.error('Failed to update article', { description: failureDescription(err, FALLBACK) });
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    if (message.includes('401'))
      toast.error('Authentication required', { description: 'Please log in again to continue.' });
    else toast.error('Failed to create article', { description: errorMessageOf(err, FALLBACK) });
  }

  const { busy, onSubmit } = useSubmit({
    check,
    save: () => (isNew ? create(articlePayload(f)) : update(f.id, articlePayload(f))),
    success: isNew ? 'Article created successfully!' : 'Article updated successfully!',
    onError,
    onClose: () => {
      clearDraft(draftKey);
      onClose();
    },
    setErrors,
    blocked: uploading || editorUploading,
  });

  return (
    <FormDialog
      id="article-form"
      size="lg"
      title={isNew ? 'Add Article' : 'Edit Article'}
      submitLabel={isNew ? 'Create Article' : 'Update Article'}
      busy={busy}
      blocked={uploading || editorUploading}
      onSubmit={onSubmit}
      onClose={onClose}
      dirty={dirty}
      onDiscard={() => clearDraft(draftKey)}
    >
      <DraftNotice
        draft={draft}
        onRestore={(values) => {
          setValues(values);
          setSlugByHand(values.slug !== '');
        }}
        onDiscard={() => clearDraft(draftKey)}
      />
      <TextField
        id="article-title"
        label="Title"
        required
        value={f.title}
        error={errors.title}
        onChange={(e) => onTitle(e.target.value)}
        data-autofocus
      />
      <TextField
        id="article-slug"
        label="Slug"
        required
        value={f.slug}
        error={errors.slug}
        hint="Suggested from the title until you edit it. Lowercase letters, digits and hyphens; used in /article/…"
        onChange={(e) => onSlug(e.target.value)}
      />
      <TextField
        id="article-author"
        label="Author"
        required
        value={f.author}
        error={errors.author}
        onChange={(e) => set('author', e.target.value)}
      />
      <SelectField
        id="article-category"
        label="Category"
        value={f.category ?? ''}
        error={errors.category}
        hint="The badge on /blog and the article page, in both languages."
        onChange={(e) => set('category', e.target.value as ArticleForm['category'])}
        options={[
          {
            value: '',
            label: `From the author (now ${categoryFor(f.author, IDENTITY.candidateName)})`,
          },
          ...ARTICLE_CATEGORIES.map((c) => ({ value: c, label: c })),
        ]}
      />
      <TextField
        id="article-published-at"
        label="Publish date and time"
        type="datetime-local"
        value={f.publishedAt}
        error={errors.publishedAt}
        hint="Leave empty to use the time it is first published; a future time schedules it."
        onChange={(e) => set('publishedAt', e.target.value)}
      />
      <CheckboxField
        id="article-published"
        label="Published"
        checked={f.isPublished}
        onChange={(e) => set('isPublished', e.target.checked)}
        className="span-2"
      />
      <TextArea
        id="article-excerpt"
        label="Excerpt"
        rows={2}
        value={f.excerpt}
        error={errors.excerpt}
        onChange={(e) => set('excerpt', e.target.value)}
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
          id="article-content"
          label="Content (required)"
          value={f.content}
          error={errors.content}
          onChange={(html) => set('content', html)}
          onUploading={setEditorUploading}
        />
      </Suspense>
      <div className="span-2 preview-row">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() =>
            void openPreview(articlePayload(f)).catch((err: unknown) =>
              toast.error('Preview failed', { description: failureDescription(err, FALLBACK) }),
            )
          }
        >
          Preview
        </button>
        <span className="muted">Opens in a new tab as it will appear on the site; nothing is published.</span>
      </div>
      <div className="field span-2">
        <label htmlFor="article-image-file" className="field__label">
          Upload image
        </label>
        <input
          id="article-image-file"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          aria-describedby="article-image-file-hint"
          aria-busy={uploading}
          onChange={(e) => void onUpload(e.target.files?.[0])}
        />
        <p id="article-image-file-hint" className="field__hint">
          Recommended size: 1200x630{uploading ? ' · Uploading…' : ''}
        </p>
        {uploadError ? (
          <p className="alert alert--error" role="alert">
            {uploadError}
          </p>
        ) : null}
      </div>
      <TextField
        id="article-image-url"
        label="Image URL"
        type="url"
        value={f.imageUrl}
        error={errors.imageUrl}
        hint="Or paste an image address."
        onChange={(e) => set('imageUrl', e.target.value)}
        className="span-2"
      />
      {f.imageUrl ? (
        <img
          className="image-preview span-2"
          src={f.imageUrl}
          alt="Preview of the article image"
          width={300}
          height={158}
        />
      ) : null}
    </FormDialog>
  );
}
