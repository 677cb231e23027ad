import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ARTICLE_MESSAGES } from '../../lib/schemas/article.ts';
import { messageOf } from '../../lib/client/api.ts';
import { useCreateArticle } from '../api/create-article.ts';
import { useUpdateArticle } from '../api/update-article.ts';
import { IMAGE_UPLOAD_FAILED, uploadImage } from '../api/upload-image.ts';
import { Dialog } from '../components/Dialog.tsx';
import { CheckboxField, TextArea, TextField } from '../components/Field.tsx';
import {
  articlePayload,
  hasRequiredArticleFields,
  normaliseSlug,
  type ArticleForm,
} from '../forms/article-form.ts';
import { failureDescription, serverFieldErrors } from '../forms/errors.ts';

/** Add (id 0) or edit an article. The caller keys it by record so each opening starts fresh. */
export function ArticleModal({ initial, onClose }: { initial: ArticleForm; onClose: () => void }) {
  const [f, setF] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateArticle();
  const update = useUpdateArticle();
  const isNew = f.id === 0;
  const set = <K extends keyof ArticleForm>(k: K, v: ArticleForm[K]) => setF((prev) => ({ ...prev, [k]: v }));

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

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // aria-disabled, not disabled, while saving: the button keeps focus.
    if (busy || uploading) return;
    if (!hasRequiredArticleFields(f)) {
      toast.error(ARTICLE_MESSAGES.missingTitle, { description: ARTICLE_MESSAGES.missingDescription });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      if (isNew) {
        await create(articlePayload(f));
        toast.success('Article created successfully!');
      } else {
        await update(f.id, articlePayload(f));
        toast.success('Article updated successfully!');
      }
      onClose();
    } catch (err) {
      setErrors(serverFieldErrors(err));
      if (isNew) {
        const message = err instanceof Error ? err.message : String(err);
        if (message.includes('401'))
          toast.error('Authentication required', { description: 'Please log in again to continue.' });
        else
          toast.error('Failed to create article', {
            description: messageOf(err, 'Please check your input and try again.'),
          });
      } else {
        toast.error('Failed to update article', {
          description: failureDescription(err, 'Please check your input and try again.'),
        });
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={isNew ? 'Add Article' : 'Edit Article'}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form="article-form"
            className="btn btn--primary"
            aria-disabled={busy || uploading}
          >
            {busy ? 'Saving...' : isNew ? 'Create Article' : 'Update Article'}
          </button>
        </>
      }
    >
      <form id="article-form" onSubmit={(e) => void onSubmit(e)} noValidate className="form-grid">
        <TextField
          id="article-title"
          label="Title"
          required
          value={f.title}
          error={errors.title}
          onChange={(e) => set('title', e.target.value)}
          data-autofocus
        />
        <TextField
          id="article-slug"
          label="Slug"
          required
          value={f.slug}
          error={errors.slug}
          hint="Lowercase letters, digits and hyphens; used in /article/…"
          onChange={(e) => set('slug', normaliseSlug(e.target.value))}
        />
        <TextField
          id="article-author"
          label="Author"
          required
          value={f.author}
          error={errors.author}
          onChange={(e) => set('author', e.target.value)}
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
        <TextArea
          id="article-content"
          label="Content"
          required
          rows={10}
          value={f.content}
          error={errors.content}
          hint="HTML is allowed; it is cleaned on the server when saved."
          onChange={(e) => set('content', e.target.value)}
          className="span-2"
        />
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
      </form>
    </Dialog>
  );
}
