import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { isAllowedHref } from '../../lib/schemas/article-html.ts';
import { IMAGE_UPLOAD_FAILED, uploadImage } from '../api/upload-image.ts';
import { articleExtensions } from './extensions.ts';
import { cleanPastedHtml } from './paste.ts';

export const LINK_REFUSED =
  'Links must start with http://, https:// or mailto: (or / for a page of this site).';
export const ALT_REQUIRED = 'Describe the image for people who cannot see it.';

export interface ArticleEditorProps {
  id: string;
  label: string;
  value: string;
  onChange: (html: string) => void;
  error?: string | undefined;
  /** An image upload is running (the form holds its submit back). */
  onUploading?: (busy: boolean) => void;
}

/**
 * The visual article editor (docs/decisions/161-content-and-editor.md): Tiptap 3 with the allowlist's
 * constructs only. The toolbar is one tab stop (arrow keys move inside it,
 * WAI-ARIA toolbar pattern); every button has a name and toggles report
 * aria-pressed. Links and images open a small inline panel, not a second modal.
 */
export default function ArticleEditor({
  id,
  label,
  value,
  onChange,
  error,
  onUploading,
}: ArticleEditorProps) {
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  /** The HTML the editor last reported (or started with): `value` coming back equal to it is not a new value. */
  const emitted = useRef(value);
  const editor = useEditor({
    extensions: articleExtensions(),
    content: value,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        'aria-describedby': error ? `${hintId} ${errorId}` : hintId,
        ...(error ? { 'aria-invalid': 'true' } : {}),
        class: 'rich-editor__content article-body',
      },
      transformPastedHTML: cleanPastedHtml,
    },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      emitted.current = html;
      onChange(html);
    },
  });

  // A value set from outside (a restored draft) replaces the document. The editor's own updates come back as
  // `value` equal to what it last emitted, and the first value is already its content: neither is set again
  // (setting it would re-parse the document, and a form comparing its text would see it as edited).
  useEffect(() => {
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  // Keep aria-invalid/describedby in step with the error after the first render.
  useEffect(() => {
    editor?.setOptions({
      editorProps: {
        ...editor.options.editorProps,
        attributes: {
          ...(editor.options.editorProps.attributes as Record<string, string>),
          'aria-describedby': error ? `${hintId} ${errorId}` : hintId,
          'aria-invalid': error ? 'true' : 'false',
        },
      },
    });
  }, [editor, error, hintId, errorId]);

  return (
    <div className="field span-2 rich-editor">
      <span id={labelId} className="field__label">
        {label}
      </span>
      {editor ? <Toolbar editor={editor} editorId={id} onUploading={onUploading} /> : null}
      <EditorContent editor={editor} />
      <p id={hintId} className="field__hint">
        Headings, bold, italic, links, lists, quotes and images. Pasted text from Word or Google Docs keeps
        only these.
      </p>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type Panel = 'none' | 'link' | 'image';

function Toolbar({
  editor,
  editorId,
  onUploading,
}: {
  editor: Editor;
  editorId: string;
  onUploading: ArticleEditorProps['onUploading'];
}) {
  // aria-controls must name an element that is in the page: the editable area is attached by
  // EditorContent after the toolbar renders, and on a busy machine axe saw the toolbar first.
  const [controls, setControls] = useState<string | undefined>(undefined);
  useEffect(() => {
    let frame = 0;
    const check = () => {
      if (document.getElementById(editorId)) setControls(editorId);
      else frame = requestAnimationFrame(check);
    };
    check();
    return () => cancelAnimationFrame(frame);
  }, [editorId]);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      h4: e.isActive('heading', { level: 4 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      link: e.isActive('link'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const [panel, setPanel] = useState<Panel>('none');
  const bar = useRef<HTMLDivElement>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const chain = () => editor.chain().focus();

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const buttons = [...(bar.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const i = buttons.findIndex((b) => b === document.activeElement);
    if (i < 0) return;
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % buttons.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + buttons.length) % buttons.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = buttons.length - 1;
    if (next < 0) return;
    e.preventDefault();
    setFocusIndex(next);
    buttons[next]?.focus();
  }

  let index = 0;
  const button = (name: string, text: ReactNode, run: () => void, pressed?: boolean, disabled?: boolean) => {
    const i = index++;
    return (
      <button
        key={name}
        type="button"
        className="rich-editor__button"
        title={name}
        aria-pressed={pressed}
        disabled={disabled}
        tabIndex={i === focusIndex ? 0 : -1}
        onFocus={() => setFocusIndex(i)}
        onClick={run}
      >
        {/* The name is the full word ("Heading 2"); the short label is only seen. */}
        <span aria-hidden="true">{text}</span>
        <span className="sr-only">{name}</span>
      </button>
    );
  };

  return (
    <>
      <div
        ref={bar}
        className="rich-editor__toolbar"
        role="toolbar"
        aria-label="Formatting"
        aria-controls={controls}
        onKeyDown={onKeyDown}
      >
        {button('Paragraph', '¶', () => chain().setParagraph().run())}
        {button('Heading 2', 'H2', () => chain().toggleHeading({ level: 2 }).run(), state.h2)}
        {button('Heading 3', 'H3', () => chain().toggleHeading({ level: 3 }).run(), state.h3)}
        {button('Heading 4', 'H4', () => chain().toggleHeading({ level: 4 }).run(), state.h4)}
        <span className="rich-editor__sep" aria-hidden="true" />
        {button('Bold', <strong>B</strong>, () => chain().toggleBold().run(), state.bold)}
        {button('Italic', <em>I</em>, () => chain().toggleItalic().run(), state.italic)}
        {button('Link', 'Link', () => setPanel(panel === 'link' ? 'none' : 'link'), state.link)}
        <span className="rich-editor__sep" aria-hidden="true" />
        {button('Bulleted list', '• List', () => chain().toggleBulletList().run(), state.bullet)}
        {button('Numbered list', '1. List', () => chain().toggleOrderedList().run(), state.ordered)}
        {button('Quote', '“ ”', () => chain().toggleBlockquote().run(), state.quote)}
        {button('Image', 'Image', () => setPanel(panel === 'image' ? 'none' : 'image'))}
        <span className="rich-editor__sep" aria-hidden="true" />
        {button('Undo', '↶', () => chain().undo().run(), undefined, !state.canUndo)}
        {button('Redo', '↷', () => chain().redo().run(), undefined, !state.canRedo)}
      </div>
      {panel === 'link' ? <LinkPanel editor={editor} onDone={() => setPanel('none')} /> : null}
      {panel === 'image' ? (
        <ImagePanel editor={editor} onDone={() => setPanel('none')} onUploading={onUploading} />
      ) : null}
    </>
  );
}

function LinkPanel({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const base = useId();
  const current = (editor.getAttributes('link').href as string | undefined) ?? '';
  const [href, setHref] = useState(current);
  const [error, setError] = useState('');

  function apply() {
    const url = href.trim();
    if (!url) {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
      onDone();
      return;
    }
    if (!isAllowedHref(url)) {
      setError(LINK_REFUSED);
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !editor.isActive('link'))
      chain.insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: url } }] }).run();
    else chain.setLink({ href: url }).run();
    onDone();
  }

  return (
    <div
      className="rich-editor__panel"
      role="group"
      aria-label="Add or change a link"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
          editor.commands.focus();
        }
        if (e.key === 'Enter') {
          e.preventDefault();
          apply();
        }
      }}
    >
      <label htmlFor={`${base}-href`} className="field__label">
        Link address
      </label>
      <input
        id={`${base}-href`}
        className="input"
        type="url"
        inputMode="url"
        placeholder="https://"
        value={href}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${base}-error` : undefined}
        onChange={(e) => setHref(e.target.value)}
        autoFocus
      />
      {error ? (
        <p id={`${base}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="rich-editor__panel-actions">
        <button type="button" className="btn btn--primary btn--sm" onClick={apply}>
          Apply link
        </button>
        {current ? (
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            onClick={() => {
              editor.chain().focus().extendMarkRange('link').unsetLink().run();
              onDone();
            }}
          >
            Remove link
          </button>
        ) : null}
        <button type="button" className="btn btn--secondary btn--sm" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function ImagePanel({
  editor,
  onDone,
  onUploading,
}: {
  editor: Editor;
  onDone: () => void;
  onUploading: ArticleEditorProps['onUploading'];
}) {
  const base = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [altError, setAltError] = useState('');

  async function insert() {
    setError('');
    setAltError('');
    if (!alt.trim()) {
      setAltError(ALT_REQUIRED);
      return;
    }
    if (!file) {
      setError('Choose an image file first.');
      return;
    }
    setBusy(true);
    onUploading?.(true);
    try {
      const src = await uploadImage(file);
      editor.chain().focus().setImage({ src, alt: alt.trim() }).run();
      onDone();
    } catch {
      setError(IMAGE_UPLOAD_FAILED);
    } finally {
      setBusy(false);
      onUploading?.(false);
    }
  }

  return (
    <div
      className="rich-editor__panel"
      role="group"
      aria-labelledby={`${base}-title`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
          editor.commands.focus();
        }
      }}
    >
      <p id={`${base}-title`} className="field__label">
        Insert an image
      </p>
      <label htmlFor={`${base}-file`} className="field__label">
        Image file
      </label>
      <input
        id={`${base}-file`}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        autoFocus
      />
      <label htmlFor={`${base}-alt`} className="field__label">
        Alt text (required)
      </label>
      <input
        id={`${base}-alt`}
        className="input"
        value={alt}
        required
        maxLength={300}
        aria-invalid={altError ? true : undefined}
        aria-describedby={altError ? `${base}-alt-error` : undefined}
        onChange={(e) => setAlt(e.target.value)}
      />
      {altError ? (
        <p id={`${base}-alt-error`} className="field__error">
          {altError}
        </p>
      ) : null}
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="rich-editor__panel-actions">
        <button
          type="button"
          className="btn btn--primary btn--sm"
          aria-disabled={busy}
          onClick={() => void (busy ? undefined : insert())}
        >
          {busy ? 'Uploading…' : 'Insert image'}
        </button>
        <button type="button" className="btn btn--secondary btn--sm" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}
