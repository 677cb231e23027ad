import { getViteConfig } from 'astro/config';
import { PAGE_OPTIONS, pageIntegrations } from './scripts/lib/astro-pages.mts';
import { AFTER_ALONE } from './tests/sequencer.ts';

/*
 * The page tests (tests/pages/): the real page components rendered with Astro's container API at a faked moment,
 * asserting the HTML a visitor gets without JavaScript (docs/decisions/157-election-calendar.md). Astro's Vite
 * setup with the site's page options and integrations only: no adapter, no dev-server plugins, so this project
 * starts in seconds and every other vitest run pays about two of them for it.
 */
export default getViteConfig(
  {
    test: {
      name: 'pages',
      include: ['tests/pages/**/*.test.ts'],
      environment: 'node',
      testTimeout: 30_000,
      // vitest.config.ts's three at a time: a project in a config file of its own does not inherit the root's
      // maxWorkers, and with the default (1 on 2 cores) vitest ran these files alone, one at a time, after
      // every other file (docs/benchmarks.md, "Less work per check, third step").
      maxWorkers: 3,
      // With the other projects, after the browser files that run alone (vitest.config.ts ALONE).
      sequence: { groupOrder: AFTER_ALONE },
    },
  },
  { ...PAGE_OPTIONS, configFile: false, logLevel: 'error', integrations: pageIntegrations() },
);
