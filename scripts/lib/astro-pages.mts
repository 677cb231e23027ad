import react from '@astrojs/react';
import type { AstroIntegration, AstroUserConfig } from 'astro';
import { DEFAULT_LANG, LANGS } from '../../src/lib/lang.ts';

/*
 * How Astro renders the site's pages, shared by the site's config (astro.config.mjs) and the page tests'
 * (vitest.pages.config.ts, which renders the real page components without the adapter and the dev plugins:
 * docs/decisions/157-election-calendar.md).
 */

/** client:interaction: public forms hydrate on first use (src/lib/client/directives/interaction.ts, docs/decisions/162-public-pages-and-performance.md). */
const clientDirectives: AstroIntegration = {
  name: 'campaign-client-directives',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'interaction', entrypoint: './src/lib/client/directives/interaction.ts' });
    },
  },
};

export const PAGE_OPTIONS = {
  // One URL form everywhere (docs/decisions/159-public-forms.md): /about, never /about/. Pages are written as
  // about.html, which Netlify serves at /about without a redirect (src/lib/urls.ts).
  trailingSlash: 'never',
  // Every page's CSS is in its HTML: no render-blocking stylesheet request (a page's whole CSS is
  // a few KB compressed, well under the first round trip's ~14 KB; a build test holds that).
  build: { format: 'file', inlineStylesheets: 'always' },
  // English at the root, Spanish under /es/ (src/lib/lang-paths.ts holds the same rule).
  // No redirect by Accept-Language: crawlers and shared links get the page they asked for.
  i18n: {
    locales: [...LANGS],
    defaultLocale: DEFAULT_LANG,
    routing: { prefixDefaultLocale: false, redirectToDefaultLocale: false },
  },
} satisfies AstroUserConfig;

/** The integrations that shape the pages themselves: React (islands and server-rendered components), the directive. */
export const pageIntegrations = (): AstroIntegration[] => [react(), clientDirectives];
