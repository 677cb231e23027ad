import type { Attribute, Extensions } from '@tiptap/core';
import CodeBlock from '@tiptap/extension-code-block';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import StarterKit from '@tiptap/starter-kit';
import {
  ARTICLE_BLOCKS,
  ARTICLE_HEADING_LEVELS,
  ARTICLE_MARKS,
  isAllowedHref,
  isAllowedImageSrc,
} from '../../lib/schemas/article-html.ts';

/**
 * The article editor's schema, built from the one allowlist
 * (src/lib/schemas/article-html.ts) that the server's sanitiser is built
 * from: every construct here produces only allowlisted tags and attributes,
 * and tests/unit/editor-allowlist.test.ts round-trips each through the
 * sanitiser. Pasted HTML (Word, Google Docs) is parsed into this schema, so
 * anything else is dropped on the way in.
 */
export function articleExtensions(): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: [...ARTICLE_HEADING_LEVELS] },
      // Replaced below by a code block without a language class (the allowlist keeps no classes).
      codeBlock: false,
      // Replaced below by a link that keeps only href and title.
      link: false,
    }),
    CodeBlock.extend({ addAttributes: () => ({}) }),
    // Only href and title (the allowlist's): a pasted target, rel or class is not even parsed.
    Link.extend({
      addAttributes() {
        const inherited = (this.parent?.() ?? {}) as Record<string, Attribute>;
        return { href: inherited.href!, title: inherited.title! };
      },
    }).configure({
      openOnClick: false,
      autolink: true,
      linkOnPaste: true,
      defaultProtocol: 'https',
      protocols: ['mailto'],
      // Link's defaults add target and rel; the allowlist keeps neither.
      HTMLAttributes: { target: null, rel: null, class: null },
      isAllowedUri: (url) => isAllowedHref(url),
      shouldAutoLink: (url) => isAllowedHref(url),
    }),
    // Images only from http(s) or this site: a pasted file:// or data: image is dropped, not kept broken.
    Image.extend({
      parseHTML() {
        return [
          {
            tag: 'img[src]',
            getAttrs: (el) => (isAllowedImageSrc(el.getAttribute('src') ?? '') ? null : false),
          },
        ];
      },
    }).configure({ inline: false, allowBase64: false }),
  ];
}

/** Node and mark names the allowlist expects the editor to have (tested). */
export const EXPECTED_EDITOR_TYPES = new Set<string>([
  ...Object.values(ARTICLE_BLOCKS),
  ...Object.values(ARTICLE_MARKS),
  'doc',
  'text',
]);
