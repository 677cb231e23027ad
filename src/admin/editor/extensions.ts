import type { Extensions } from '@tiptap/core';
import CodeBlock from '@tiptap/extension-code-block';
import Image from '@tiptap/extension-image';
import StarterKit from '@tiptap/starter-kit';
import {
  ARTICLE_BLOCKS,
  ARTICLE_HEADING_LEVELS,
  ARTICLE_MARKS,
  isAllowedHref,
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
      link: {
        openOnClick: false,
        autolink: true,
        linkOnPaste: true,
        defaultProtocol: 'https',
        protocols: ['mailto'],
        // No target/rel/class: the allowlist keeps href and title only.
        HTMLAttributes: { target: null, rel: null, class: null },
        isAllowedUri: (url) => isAllowedHref(url),
        shouldAutoLink: (url) => isAllowedHref(url),
      },
    }),
    CodeBlock.extend({ addAttributes: () => ({}) }),
    Image.configure({ inline: false, allowBase64: false }),
  ];
}

/** Node and mark names the allowlist expects the editor to have (tested). */
export const EXPECTED_EDITOR_TYPES = new Set<string>([
  ...Object.values(ARTICLE_BLOCKS),
  ...Object.values(ARTICLE_MARKS),
  'doc',
  'text',
]);
