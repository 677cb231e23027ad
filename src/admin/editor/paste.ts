/**
 * Clean-up of HTML pasted from Word and Google Docs before the editor parses
 * it into its schema (which already drops every tag and attribute outside the
 * allowlist). This removes what would otherwise leak through as text or be
 * misread: Office's conditional comments and XML islands, <o:p> paragraphs,
 * style and meta blocks, and Google Docs' outer <b id="docs-internal-guid-…">
 * wrapper, which is not bold.
 */
export function cleanPastedHtml(html: string): string {
  return (
    html
      // Office conditional comments: <!--[if ...]> ... <![endif]-->, and every other comment
      .replace(/<!--\[if[\s\S]*?<!\[endif\]-->/gi, '')
      .replace(/<!--[\s\S]*?-->/g, '')
      // Blocks whose content is not article text
      .replace(/<(style|script|meta|link|title|xml|head)\b[\s\S]*?<\/\1>/gi, '')
      .replace(/<(meta|link)\b[^>]*>/gi, '')
      // Office namespaced elements (<o:p>, <w:sdt>, <v:shape>): keep their text, drop the tags
      .replace(/<\/?[a-z]+:[a-z-]+\b[^>]*>/gi, '')
      // Google Docs' wrapper around the whole clipboard
      .replace(/<b\b[^>]*id="docs-internal-guid-[^"]*"[^>]*>([\s\S]*)<\/b>/i, '$1')
  );
}
