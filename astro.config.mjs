// @ts-check
import { defineConfig } from 'astro/config';
import netlify from '@astrojs/netlify';
import { cspDirectives, CSP_SCRIPT_RESOURCES } from './src/lib/csp.mjs';
import { PAGE_SCRIPT_LOADER_HASH } from './src/lib/page-script-loader.mjs';
import { functionsInProcess } from './scripts/dev/functions-in-process.mts';
import { scheduledFunctionsInDev } from './scripts/dev/scheduled-functions.mts';
import { broadcastRunsInDev } from './scripts/dev/broadcast-runs.mts';
import { devImageCache } from './scripts/dev/image-cache.mts';
import { completeDevBlobListings } from './scripts/dev/blobs-listing.mts';
import { trailingSlashRedirects } from './scripts/dev/trailing-slash.mts';
import { localOrigin, localSiteUrl, portFromArgv } from './scripts/dev/site-url.mts';
import { clientDependencies } from './scripts/dev/client-deps.mjs';
import { launchGate } from './scripts/lib/launch-gate.mts';
import { PAGE_OPTIONS, pageIntegrations } from './scripts/lib/astro-pages.mts';

// The dev server's port: `npm run dev -- --port 5750` (the script pins none), else 4321.
const devPort = portFromArgv() ?? 4321;
// SITE_URL is the public origin used for canonical URLs, sitemaps and reset links.
// On Netlify builds, URL (the site's main address) is set automatically as a fallback. Locally, the dev
// server's own origin (docs/decisions/164-dev-server-and-local-mode.md).
const site = process.env.SITE_URL || process.env.URL || localOrigin(devPort);
// Astro's CSP is unsupported under the Vite dev server: its <meta> there blocks the
// dev server's inline island scripts, so no island hydrates. Built output keeps it.
const isDevServer = process.argv.includes('dev');
// `astro check` type-checks the sources and needs no adapter. The Netlify adapter empties .netlify/build/ as it
// starts (its config hook, in every command), which broke a build running beside the check: `npm test` runs the check
// beside vitest, whose browser setup builds (docs/decisions/163-tests.md).
const isTypeCheck = process.argv.includes('check');
// What Netlify's dev middleware emulates besides Blobs, headers, redirects and static files.
const NETLIFY_DEV_FEATURES = { edgeFunctions: false, environmentVariables: false, images: false };
// No preloads for dynamic imports (docs/decisions/162-public-pages-and-performance.md). Vite's helper inserts a <link rel="modulepreload"> into
// <head> for each chunk a dynamic import needs, and those insertions cost the page script's start
// 11-20 ms on this machine (a long task on the modelled phone, after the first paint, where it counts
// as blocking time); without them it is 2-3 ms. What a dynamic import needs is fetched when its chunk
// asks (one more round trip, after the paint). No preload also means no second URL for a chunk under
// skew protection (the adapter adds ?dpl=<id> to imports between /_astro chunks, not to Vite's preload
// list). Astro fixes the client build's modulePreload option, so a plugin sets it after Astro has.
/** @returns {import('vite').Plugin} */
function noDynamicImportPreloads() {
  return {
    name: 'campaign-no-dynamic-import-preloads',
    configEnvironment(name) {
      if (name !== 'client') return;
      return { build: { modulePreload: { resolveDependencies: () => [] } } };
    },
  };
}

export default defineConfig({
  site,
  output: 'static',
  ...PAGE_OPTIONS,
  integrations: [
    ...pageIntegrations(),
    // A production build (CONTEXT=production on Netlify, or APP_ENV=production elsewhere) fails while
    // placeholders or settings remain; other builds print the list (docs/decisions/085-launch-gate.md).
    launchGate(),
  ],
  adapter: isTypeCheck
    ? undefined
    : netlify({
        devFeatures: NETLIFY_DEV_FEATURES,
        // Images are optimised at build time by Astro (sharp: AVIF/WebP into /_astro/, cached for a
        // year), not resized per request by Netlify's Image CDN (docs/decisions/162-public-pages-and-performance.md).
        imageCDN: false,
        // Emit the CSP of static pages as a real header (frame-ancestors is ignored in <meta>).
        staticHeaders: true,
      }),
  server: { port: devPort, host: '127.0.0.1' },
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
          // Complete listings from the local Blobs server while it writes (docs/decisions/164-dev-server-and-local-mode.md).
          completeDevBlobListings(),
          // /about/ answers 301 to /about, as on Netlify (docs/decisions/162-public-pages-and-performance.md).
          trailingSlashRedirects(),
          // The API's links follow the port actually served (docs/decisions/164-dev-server-and-local-mode.md).
          localSiteUrl(),
          // The broadcast job right after a staff action, as a dev convenience (docs/decisions/152-broadcasts.md).
          broadcastRunsInDev(),
          ...(process.env.CAMPAIGN_DEV_FUNCTIONS !== 'emulator'
            ? [functionsInProcess({ devFeatures: NETLIFY_DEV_FEATURES })]
            : []),
          // Scheduled functions on their schedules, as on Netlify (docs/decisions/164-dev-server-and-local-mode.md).
          scheduledFunctionsInDev(),
        ]
      : [noDynamicImportPreloads()],
    server: {
      // Like Netlify: no CORS headers on any response (Vite's dev default would answer localhost origins).
      cors: false,
    },
    optimizeDeps: {
      // Every browser dependency, pre-bundled when the dev server starts. A dependency first met at
      // run time (sonner, loaded on the first toast) makes Vite re-optimise and reload the page,
      // which loses what the visitor was doing (toast tests were flaky with it).
      // The list is read from the browser code itself (scripts/dev/client-deps.mjs), plus React's JSX runtimes.
      include: ['react/jsx-runtime', 'react/jsx-dev-runtime', ...clientDependencies()],
    },
  },
  // The dev toolbar injects its own UI; the browser tests turn it off (DISABLE_DEV_TOOLBAR=1).
  devToolbar: { enabled: process.env.DISABLE_DEV_TOOLBAR !== '1' },
});
