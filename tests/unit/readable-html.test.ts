import { describe, expect, it } from 'vitest';
import { readableText } from '../../src/admin/forms/readable-html.ts';

/** The History diff shows an article as a reader sees it, never its HTML. */
describe('readableText', () => {
  it('turns blocks into lines, lists into bullets, and drops every tag', () => {
    const html =
      '<h2>Our plan</h2><p>Fix the <strong>streets</strong> &amp; <a href="https://x.test">drains</a>.</p>' +
      '<ul><li><p>One</p></li><li><p>Two</p></li></ul><blockquote><p>Quote</p></blockquote>' +
      '<p>Line<br>break</p><p><img src="/api/uploads/a.png" alt="Mayor &quot;Avery&quot;"></p>';
    const text = readableText(html);
    expect(text).toBe(
      'Our plan\n\nFix the streets & drains.\n\n• One\n• Two\n\nQuote\n\nLine\nbreak\n\n[Image: Mayor "Avery"]',
    );
    expect(text).not.toMatch(/[<>]/);
  });

  it('decodes numeric entities and keeps text that only looks like markup', () => {
    expect(readableText('<p>A&#241;o &#x2014; 5 &lt; 6</p>')).toBe('Año — 5 < 6');
    expect(readableText('plain words')).toBe('plain words');
    expect(readableText('')).toBe('');
  });
});
