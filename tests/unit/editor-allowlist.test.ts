// @vitest-environment happy-dom
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { articleExtensions, EXPECTED_EDITOR_TYPES } from '../../src/admin/editor/extensions.ts';
import { cleanPastedHtml } from '../../src/admin/editor/paste.ts';
import { ARTICLE_TAGS } from '../../src/lib/schemas/article-html.ts';
import { articleSanitizer } from '../../src/lib/server/content/sanitize.ts';

const sanitizeArticleHtml = await articleSanitizer();

/**
 * The editor and the server's sanitiser share one allowlist. Every
 * construct the editor can make survives the sanitiser unchanged, existing
 * (sanitised) articles open in the editor without losing anything, and
 * pasted Word / Google Docs HTML comes out inside the allowlist.
 */
// happy-dom has the standard cssRules but not Chrome's `rules`, which ProseMirror's paste parser reads.
if (!('rules' in CSSStyleSheet.prototype))
  Object.defineProperty(CSSStyleSheet.prototype, 'rules', {
    get(this: CSSStyleSheet) {
      return this.cssRules;
    },
  });

let editor: Editor | null = null;
afterEach(() => {
  editor?.destroy();
  editor = null;
});

function open(html = ''): Editor {
  editor?.destroy();
  editor = new Editor({
    element: document.createElement('div'),
    extensions: articleExtensions(),
    content: html,
  });
  return editor;
}

const tagsOf = (html: string) => new Set([...html.matchAll(/<([a-z0-9]+)[\s>]/g)].map((m) => m[1]!));
const textOf = (html: string) => {
  const div = document.createElement('div');
  div.innerHTML = html;
  return (div.textContent ?? '').replace(/\s+/g, ' ').trim();
};

/** Each construct as the editor's own commands make it. */
const CONSTRUCTS: [string, (e: Editor) => void][] = [
  ['paragraph', (e) => e.commands.setContent('<p>Plain words.</p>')],
  ['heading 2', (e) => e.chain().setContent('<p>Title</p>').selectAll().setHeading({ level: 2 }).run()],
  ['heading 3', (e) => e.chain().setContent('<p>Title</p>').selectAll().setHeading({ level: 3 }).run()],
  ['heading 4', (e) => e.chain().setContent('<p>Title</p>').selectAll().setHeading({ level: 4 }).run()],
  ['bold', (e) => e.chain().setContent('<p>bold</p>').selectAll().toggleBold().run()],
  ['italic', (e) => e.chain().setContent('<p>italic</p>').selectAll().toggleItalic().run()],
  ['underline', (e) => e.chain().setContent('<p>under</p>').selectAll().toggleUnderline().run()],
  ['strike', (e) => e.chain().setContent('<p>strike</p>').selectAll().toggleStrike().run()],
  ['inline code', (e) => e.chain().setContent('<p>code</p>').selectAll().toggleCode().run()],
  [
    'https link',
    (e) =>
      e.chain().setContent('<p>site</p>').selectAll().setLink({ href: 'https://nola.gov/x?a=1&b=2' }).run(),
  ],
  [
    'mailto link',
    (e) =>
      e.chain().setContent('<p>mail</p>').selectAll().setLink({ href: 'mailto:press@example.org' }).run(),
  ],
  [
    'relative link',
    (e) => e.chain().setContent('<p>donate</p>').selectAll().setLink({ href: '/donate' }).run(),
  ],
  ['bullet list', (e) => e.chain().setContent('<p>one</p>').selectAll().toggleBulletList().run()],
  ['numbered list', (e) => e.chain().setContent('<p>one</p>').selectAll().toggleOrderedList().run()],
  ['numbered list from 3', (e) => e.commands.setContent('<ol start="3"><li><p>three</p></li></ol>')],
  ['block quote', (e) => e.chain().setContent('<p>quoted</p>').selectAll().toggleBlockquote().run()],
  ['code block', (e) => e.chain().setContent('<p>x = 1</p>').selectAll().toggleCodeBlock().run()],
  ['horizontal rule', (e) => e.chain().setContent('<p>a</p>').setHorizontalRule().run()],
  [
    'hard break',
    (e) => e.chain().setContent('<p>a</p>').focus('end').setHardBreak().insertContent('b').run(),
  ],
  [
    'image with alt text',
    (e) =>
      e
        .chain()
        .setContent('<p>a</p>')
        .focus('end')
        .setImage({ src: '/api/uploads/0123456789abcdef0123456789abcdef.png', alt: 'Volunteers at the hub' })
        .run(),
  ],
  [
    'everything nested',
    (e) =>
      e.commands.setContent(
        '<h2>Plan</h2><p><strong>Bold <em>and italic</em></strong> with <a href="https://nola.gov" title="City">a link</a>.</p>' +
          '<ul><li><p>one</p><ul><li><p>nested</p></li></ul></li></ul><blockquote><p>Quote &amp; “curly” &lt;text&gt;</p></blockquote>' +
          '<p><img src="https://cdn.example/a.jpg" alt="A &quot;quoted&quot; alt" title="T" width="1200" height="630"></p>',
      ),
  ],
];

describe('editor constructs round-trip through the sanitiser unchanged', () => {
  it('the editor schema has exactly the allowlist’s constructs', () => {
    const e = open();
    const names = new Set([...Object.keys(e.schema.nodes), ...Object.keys(e.schema.marks)]);
    expect(names).toEqual(EXPECTED_EDITOR_TYPES);
  });

  it.each(CONSTRUCTS)('%s', (_name, make) => {
    const e = open();
    make(e);
    const html = e.getHTML();
    expect(sanitizeArticleHtml(html)).toBe(html);
    for (const tag of tagsOf(html)) expect(ARTICLE_TAGS as string[]).toContain(tag);
    // And it opens again as the same document.
    expect(open(html).getHTML()).toBe(html);
  });

  it('links outside http, https, mailto and relative paths are refused by the editor itself', () => {
    const e = open('<p>x</p>');
    for (const href of ['javascript:alert(1)', 'data:text/html,hi', 'vbscript:x', '//evil.example/']) {
      e.chain().selectAll().setLink({ href }).run();
      expect(e.getHTML(), href).not.toContain('href');
    }
  });
});

/** Markup of articles written before the editor (the seed, the old textarea). */
const EXISTING = [
  '<p>Anyone who has driven down Claiborne <em>after a storm</em> knows.</p><h2>Plan</h2><ol><li>Clear basins</li><li>Fund pumps</li></ol>',
  '<p><strong>NEW ORLEANS</strong> — The committee opened its hub.</p><blockquote>Quote</blockquote><ul><li>a</li><li><a href="mailto:press@example.org">press</a></li></ul>',
  '<h1>Old title</h1><p>Line<br>break</p><hr><pre><code>code</code></pre><h5>small</h5><b>b</b> <i>i</i>',
  '<p><img src="/api/uploads/0123456789abcdef0123456789abcdef.png" alt="Hub"></p><h3>Three</h3><h4>Four</h4>',
];

describe('existing articles open in the editor without loss', () => {
  it.each(EXISTING)('%s', (stored) => {
    const saved = sanitizeArticleHtml(stored);
    const html = open(saved).getHTML();
    expect(textOf(html)).toBe(textOf(saved));
    // Every allowlisted construct the article had is still there.
    for (const tag of tagsOf(saved)) expect(tagsOf(html), tag).toContain(tag);
    expect(sanitizeArticleHtml(html)).toBe(html);
  });
});

const WORD = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name=Generator content="Microsoft Word 15"><style>p.MsoNormal{margin:0}</style><!--[if gte mso 9]><xml><o:OfficeDocumentSettings/></xml><![endif]--></head>
<body lang=EN-US><!--StartFragment--><h1 style='mso-margin-top-alt:auto'><span style='font-family:"Calibri"'>Campaign update<o:p></o:p></span></h1>
<p class=MsoNormal><b><span style='color:red'>Bold</span></b> and <i>italic</i> text with <a href="https://nola.gov" target="_blank" class="x">a link</a>.<o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='mso-list:l0 level1 lfo1'><![if !supportLists]><span>1.</span><![endif]>First point</p>
<table><tr><td>cell</td></tr></table><p><img src="file:///C:/Users/x/image001.png" alt="local"></p><!--EndFragment--></body></html>`;

const GOOGLE_DOCS = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234abcd"><h2 dir="ltr" style="line-height:1.38;"><span style="font-size:16pt;font-weight:400;">Town hall</span></h2>
<p dir="ltr"><span style="font-weight:700;">Bold words</span><span style="font-weight:400;"> then </span><span style="font-style:italic;">italic</span><span> and </span><a href="https://example.org/rsvp"><span style="text-decoration:underline;">RSVP</span></a></p>
<ul><li dir="ltr" aria-level="1"><p dir="ltr"><span>Bring a friend</span></p></li></ul></b><br class="Apple-interchange-newline">`;

describe('paste from Word and Google Docs is cleaned to the allowlist', () => {
  it.each([
    ['Word', WORD, ['Campaign update', 'Bold', 'italic', 'a link', 'First point', 'cell']],
    ['Google Docs', GOOGLE_DOCS, ['Town hall', 'Bold words', 'italic', 'RSVP', 'Bring a friend']],
  ])('%s', (_source, clipboard, texts) => {
    const e = open('<p></p>');
    e.view.pasteHTML(clipboard);
    const html = e.getHTML();
    expect(sanitizeArticleHtml(html)).toBe(html);
    for (const tag of tagsOf(html)) expect(ARTICLE_TAGS as string[]).toContain(tag);
    expect(html).not.toMatch(/style=|class=|mso-|o:p|<span|<table|file:|StartFragment/i);
    for (const t of texts) expect(textOf(html)).toContain(t);
    expect(html).toMatch(/<strong>Bold( words)?<\/strong>/);
    expect(html).toContain('<em>italic</em>');
    expect(html).toMatch(/<a href="https:\/\/(nola\.gov|example\.org\/rsvp)">/);
  });

  it('Google Docs’ wrapper <b> is not bold', () => {
    const e = open('<p></p>');
    e.view.pasteHTML(GOOGLE_DOCS);
    expect(e.getHTML()).toContain('<h2>Town hall</h2>');
    expect(e.getHTML()).not.toContain('<strong>Town hall');
  });

  it('cleanPastedHtml drops Office comments, XML and namespaced tags but keeps their text', () => {
    expect(
      cleanPastedHtml('<!--[if gte mso 9]><xml>x</xml><![endif]--><p>a<o:p></o:p></p><style>p{}</style>'),
    ).toBe('<p>a</p>');
  });
});
