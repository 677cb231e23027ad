/**
 * The one allowlist of article HTML (docs/decisions/161-content-and-editor.md). The server's sanitiser
 * (src/lib/server/content/sanitize.ts) and the dashboard's editor
 * (src/admin/editor/extensions.ts) are both built from this module, so the
 * editor can produce nothing the sanitiser would remove, and the sanitiser
 * keeps nothing the editor cannot show. zod-free: the editor imports it.
 *
 * Each tag names the editor construct that produces it.
 */
export const ARTICLE_BLOCKS = {
  p: 'paragraph',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  ul: 'bulletList',
  ol: 'orderedList',
  li: 'listItem',
  blockquote: 'blockquote',
  pre: 'codeBlock',
  hr: 'horizontalRule',
  img: 'image',
  br: 'hardBreak',
} as const;

export const ARTICLE_MARKS = {
  strong: 'bold',
  em: 'italic',
  u: 'underline',
  s: 'strike',
  code: 'code',
  a: 'link',
} as const;

export type ArticleTag = keyof typeof ARTICLE_BLOCKS | keyof typeof ARTICLE_MARKS;

/** Every tag an article may contain. */
export const ARTICLE_TAGS = [...Object.keys(ARTICLE_BLOCKS), ...Object.keys(ARTICLE_MARKS)] as ArticleTag[];

/** Heading levels of the editor (the page's own title is the h1). */
export const ARTICLE_HEADING_LEVELS = [2, 3, 4] as const;

/** Attributes per tag; every other attribute (style, class, on*, target...) is dropped. */
export const ARTICLE_ATTRIBUTES = {
  a: ['href', 'title'],
  /** A numbered list may start at another number or count in letters/roman numerals (kept from Word). */
  ol: ['start', 'type'],
  img: ['src', 'alt', 'title', 'width', 'height'],
} as const satisfies Partial<Record<ArticleTag, readonly string[]>>;

/** URL schemes: links may also mail; images only load over http(s) (or a relative /api/uploads path). */
export const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;
export const IMAGE_SCHEMES = ['http', 'https'] as const;

/**
 * Older or pasted markup mapped onto the allowlist instead of being lost:
 * the same meaning in the editor's own tag (b -> strong, h1 -> h2, ...).
 */
export const ARTICLE_TAG_ALIASES = {
  b: 'strong',
  i: 'em',
  h1: 'h2',
  h5: 'h4',
  h6: 'h4',
  del: 's',
  strike: 's',
  ins: 'u',
} as const satisfies Record<string, ArticleTag>;

/** Dropped with their content (never kept as text). */
export const ARTICLE_DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'iframe',
  'svg',
  'math',
  'object',
  'template',
  'title',
] as const;

/**
 * Is this a link the allowlist keeps? http(s), mailto, or a site-relative
 * path (/donate); never protocol-relative (//host) or any other scheme. The
 * editor's link form asks this before adding a link.
 */
export function isAllowedHref(href: string): boolean {
  return isAllowedUrl(href, LINK_SCHEMES);
}

export function isAllowedImageSrc(src: string): boolean {
  return isAllowedUrl(src, IMAGE_SCHEMES);
}

function isAllowedUrl(url: string, schemes: readonly string[]): boolean {
  // eslint-disable-next-line no-control-regex -- browsers ignore control characters and whitespace in URLs
  const u = url.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  if (!u || u.startsWith('//')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(u)?.[1];
  if (scheme) return schemes.includes(scheme);
  return u.startsWith('/') || u.startsWith('#') || !u.includes(':');
}
