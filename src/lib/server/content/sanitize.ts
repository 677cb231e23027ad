import type sanitizeHtml from 'sanitize-html';
import {
  ARTICLE_ATTRIBUTES,
  ARTICLE_DROPPED_WITH_CONTENT,
  ARTICLE_TAG_ALIASES,
  ARTICLE_TAGS,
  IMAGE_SCHEMES,
  LINK_SCHEMES,
} from '../../schemas/article-html.ts';

/**
 * Article HTML allowlist (SECURITY.md, "Content and uploads"), built from the
 * one allowlist in src/lib/schemas/article-html.ts that the dashboard's
 * editor is built from too (docs/decisions/161-content-and-editor.md): paragraphs, headings h2-h4, lists,
 * quotes, code, rules, links and images, bold/italic/underline/strike.
 * Older tags with the same meaning are mapped onto it (b -> strong, h1 -> h2).
 * Everything else is dropped: script/style/iframe/svg/object/form elements,
 * every event handler and style attribute, and any URL scheme but http(s)
 * (links also mailto). Relative URLs stay allowed (/donate, /api/uploads/...).
 * Protocol-relative ones (//host) are refused. The output is stable:
 * sanitising twice changes nothing (tested with the XSS corpus).
 */
type SanitizeHtml = typeof sanitizeHtml;

const options = (lib: SanitizeHtml): sanitizeHtml.IOptions => ({
  allowedTags: [...ARTICLE_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(ARTICLE_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]]),
  ),
  allowedSchemes: [...IMAGE_SCHEMES],
  allowedSchemesByTag: { a: [...LINK_SCHEMES], img: [...IMAGE_SCHEMES] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: Object.fromEntries(
    Object.entries(ARTICLE_TAG_ALIASES).map(([from, to]) => [from, lib.simpleTransform(to, {}, false)]),
  ),
  // Content of these is dropped with the tag, not kept as text.
  nonTextTags: [...ARTICLE_DROPPED_WITH_CONTENT],
  parseStyleAttributes: false,
});

/**
 * Written as the browser serialises HTML (what the editor sends), so its
 * output passes through unchanged: void elements as `<br>` and `<img ...>`,
 * and a no-break space as `&nbsp;`. Safe as text replacements: sanitize-html
 * escapes every '>' inside text and attribute values, so ' />' only ever ends
 * one of its own void tags.
 */
function articleSanitizerWith(lib: SanitizeHtml): (html: string) => string {
  const opts = options(lib);
  return (html) =>
    lib(html, opts)
      .replace(/ \/>/g, '>')
      .replace(/\u00a0/g, '&nbsp;')
      .trim();
}

let loading: Promise<(html: string) => string> | undefined;

/**
 * The article sanitiser, with sanitize-html loaded on first use: only content
 * writes and previews need it, so no function pays for it at start-up
 * (docs/decisions/162-public-pages-and-performance.md).
 */
export function articleSanitizer(): Promise<(html: string) => string> {
  loading ??= import('sanitize-html').then((m) => articleSanitizerWith(m.default));
  return loading;
}

export async function sanitizeArticleHtml(html: string): Promise<string> {
  return (await articleSanitizer())(html);
}
