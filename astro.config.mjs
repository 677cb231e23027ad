// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import netlify from '@astrojs/netlify';
import { cspDirectives, CSP_SCRIPT_RESOURCES } from './src/lib/csp.mjs';
import { PAGE_SCRIPT_LOADER_HASH } from './src/lib/page-script-loader.mjs';
import { functionsInProcess } from './scripts/dev/functions-in-process.mts';
import { devImageCache } from './scripts/dev/image-cache.mts';
import { clientDependencies } from './scripts/dev/client-deps.mjs';
import { DEFAULT_LANG, LANGS } from './src/lib/lang.ts';
import { URLSearchParams } from 'node:url';

// SITE_URL is the public origin used for canonical URLs, sitemaps and reset links.
// On Netlify builds, URL (the site's main address) is set automatically as a fallback.
const site = process.env.SITE_URL || process.env.URL || 'http://localhost:4321';
// Astro's CSP is unsupported under the Vite dev server: its <meta> there blocks the
// dev server's inline island scripts, so no island hydrates. Built output keeps it.
const isDevServer = process.argv.includes('dev');
// What Netlify's dev middleware emulates besides Blobs, headers, redirects and static files.
const NETLIFY_DEV_FEATURES = { edgeFunctions: false, environmentVariables: false, images: false };
// Netlify sets DEPLOY_ID on every build; the adapter then adds ?dpl=<id> to each import between
// /_astro chunks (skew protection: a page open during a deploy still gets its own deploy's files).
// Vite's list of a dynamic import's chunks to preload does not get it, so each chunk was fetched
// twice, once per URL. The same query on the preloads (the adapter's own construction).
// Astro fixes the client build's modulePreload option, so a plugin adds to it after Astro has.
const deployQuery = process.env.DEPLOY_ID ? `?${new URLSearchParams({ dpl: process.env.DEPLOY_ID })}` : '';
/** @returns {import('vite').Plugin} */
function preloadWithDeployQuery() {
  return {
    name: 'campaign-preload-deploy-query',
    configEnvironment(name) {
      if (name !== 'client' || !deployQuery) return;
      return {
        build: {
          modulePreload: {
            resolveDependencies: (_file, deps) =>
              deps.map((dep) => (dep.endsWith('.js') ? dep + deployQuery : dep)),
          },
        },
      };
    },
  };
}

export default defineConfig({
  site,
  output: 'static',
  // One URL form everywhere (issue 9): /about, never /about/. Pages are written as
  // about.html, which Netlify serves at /about without a redirect (src/lib/urls.ts).
  trailingSlash: 'never',
  // Every page's CSS is in its HTML: no render-blocking stylesheet request (a page's whole CSS is
  // a few KB compressed, well under the first round trip's ~14 KB; a build test holds that).
  build: { format: 'file', inlineStylesheets: 'always' },
  integrations: [
    react(),
    {
      // client:interaction: public forms hydrate on first use (src/lib/client/directives/interaction.ts, issue 10).
      name: 'campaign-client-directives',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => {
          addClientDirective({
            name: 'interaction',
            entrypoint: './src/lib/client/directives/interaction.ts',
          });
        },
      },
    },
  ],
  // Issue 12: English at the root, Spanish under /es/ (src/lib/lang-paths.ts holds the same rule).
  // No redirect by Accept-Language: crawlers and shared links get the page they asked for.
  i18n: {
    locales: [...LANGS],
    defaultLocale: DEFAULT_LANG,
    routing: { prefixDefaultLocale: false, redirectToDefaultLocale: false },
  },
  adapter: netlify({
    devFeatures: NETLIFY_DEV_FEATURES,
    // Images are optimised at build time by Astro (sharp: AVIF/WebP into /_astro/, cached for a
    // year), not resized per request by Netlify's Image CDN (docs/decisions.md, issue 14).
    imageCDN: false,
    // Emit the CSP of static pages as a real header (frame-ancestors is ignored in <meta>).
    staticHeaders: true,
  }),
  server: { port: 4321, host: '127.0.0.1' },
  security: isDevServer
    ? {}
    : {
        // Astro hashes its own scripts and styles, and we add the hash of our one inline script (the
        // page script's loader, src/lib/page-script-loader.mjs); script-src never gets 'unsafe-inline'.
        csp: {
          directives: cspDirectives(process.env),
          scriptDirective: { resources: CSP_SCRIPT_RESOURCES, hashes: [PAGE_SCRIPT_LOADER_HASH] },
          // Inline style attributes (React islands, sonner) need this; scripts do not.
          styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
        },
      },
  // Always emit page scripts as files, never inline: the Content-Security-Policy can then
  // allow script-src 'self' without 'unsafe-inline' (SECURITY.md "Headers"). The one inline
  // script, the page script's loader, is allowed by its hash.
  vite: {
    build: { assetsInlineLimit: 0 },
    // Development only: /api/* from the function modules loaded once (scripts/dev/functions-in-process.mts).
    // CAMPAIGN_DEV_FUNCTIONS=emulator falls back to Netlify's per-request workers (npm run bench compares both).
    // Development only, too: /_image answers kept in memory (scripts/dev/image-cache.mts).
    plugins: isDevServer
      ? [
          devImageCache(),
          ...(process.env.CAMPAIGN_DEV_FUNCTIONS !== 'emulator'
            ? [functionsInProcess({ devFeatures: NETLIFY_DEV_FEATURES })]
            : []),
        ]
      : [preloadWithDeployQuery()],
    server: {
      // Like Netlify: no CORS headers on any response (Vite's dev default would answer localhost origins).
      cors: false,
    },
    optimizeDeps: {
      // Every browser dependency, pre-bundled when the dev server starts. A dependency first met at
      // run time (sonner, loaded on the first toast) makes Vite re-optimise and reload the page,
      // which loses what the visitor was doing (the flaky toast tests of issue 10).
      // The list is read from the browser code itself (scripts/dev/client-deps.mjs), plus React's JSX runtimes.
      include: ['react/jsx-runtime', 'react/jsx-dev-runtime', ...clientDependencies()],
    },
  },
  // The dev toolbar injects its own UI; the browser tests turn it off (DISABLE_DEV_TOOLBAR=1).
  devToolbar: { enabled: process.env.DISABLE_DEV_TOOLBAR !== '1' },
});
