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
  adapter: netlify({ devFeatures: { edgeFunctions: false, environmentVariables: false, images: true } }),
  server: { port: 4321, host: '127.0.0.1' },
});
