/**
 * An article's HTML as a reader sees it, for the History diff: one paragraph
 * or heading per block with a blank line between, list items as "• item",
 * images as "[Image: alt text]", links as their text, entities decoded, and no
 * tag anywhere. The content was sanitised to the editor's allowlist on save
 * (src/lib/server/sanitize.ts), so these few tags are all it can hold; a
 * string transform is enough and keeps the diff free of the DOM.
 */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i')
    .exec(tag)
    ?.slice(2)
    .find((v) => v !== undefined) ?? '';

export function readableText(html: string): string {
  const text = html
    .replace(/<img\b[^>]*>/gi, (tag) => {
      const alt = decode(attr(tag, 'alt')).trim();
      return `[Image${alt ? `: ${alt}` : ''}]`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|h[1-6]|li|blockquote|pre|ul|ol|div)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decode(text)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/(\n• [^\n]*)\n\n(?=• )/g, '$1\n')
    .trim();
}
