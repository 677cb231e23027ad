import { describe, expect, it } from 'vitest';
import { entries } from '../../scripts/bench/pages.mts';

/* The bench's count of a page's JavaScript before interaction (docs/decisions/162-public-pages-and-performance.md). */
describe('bench: entry scripts of a page', () => {
  const island = (directive: string, component: string) =>
    `<astro-island uid="x" component-url="/_astro/${component}.js" component-export="default" renderer-url="/_astro/client.abc.js" props="{}" ssr client="${directive}" opts="{}"></astro-island>`;

  it('counts module scripts, modulepreloads and every island that hydrates without being used', () => {
    const html = [
      '<script type="module" src="/_astro/page.js?dpl=1"></script>',
      '<link rel="modulepreload" href="/_astro/shared.js">',
      island('visible', 'Visible'),
      island('idle', 'Idle'),
      island('load', 'Load'),
    ].join('\n');
    const { eager, onInteraction } = entries(html);
    expect(eager.sort()).toEqual(
      [
        '/_astro/page.js',
        '/_astro/shared.js',
        '/_astro/Visible.js',
        '/_astro/client.abc.js',
        '/_astro/Idle.js',
        '/_astro/Load.js',
      ].sort(),
    );
    expect(onInteraction).toEqual([]);
  });

  it('counts a client:interaction island apart, and its renderer as eager when another island needs it at once', () => {
    const alone = entries(island('interaction', 'Form'));
    expect(alone.eager).toEqual([]);
    expect(alone.onInteraction.sort()).toEqual(['/_astro/Form.js', '/_astro/client.abc.js']);

    const mixed = entries(island('interaction', 'Form') + island('visible', 'List'));
    expect(mixed.eager.sort()).toEqual(['/_astro/List.js', '/_astro/client.abc.js']);
    expect(mixed.onInteraction).toContain('/_astro/Form.js');
  });
});
