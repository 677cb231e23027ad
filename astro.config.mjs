// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import netlify from '@astrojs/netlify';

// SITE_URL is the public origin used for canonical URLs, sitemaps and reset links.
const site = process.env.SITE_URL || 'http://localhost:4321';

export default defineConfig({
  site,
  output: 'static',
  integrations: [react()],
  // Edge functions off in dev: otherwise the adapter downloads a Deno runtime (TOOLCHAIN.md).
  // The other two keep the adapter's defaults, spelled out because the type wants all three.
  adapter: netlify({ devFeatures: { edgeFunctions: false, images: true, environmentVariables: false } }),
  server: { port: 4321, host: '127.0.0.1' },
  // The dev toolbar injects its own UI; keep it out of the browser tests (APP_ENV=test).
  devToolbar: { enabled: process.env.APP_ENV !== 'test' },
});
