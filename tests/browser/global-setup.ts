import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { childEnv, npmRun, startDevServer, warm } from '../../scripts/lib/dev-server.mts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './helpers/chromium.ts';
import { keepBuiltFunction, serveProductionBuild } from './helpers/prod-server.ts';
import { FUTURE_CALENDAR } from '../helpers/election.ts';

/*
 * Once per browser-test run: builds the production site (dist/, for the tests
 * of built output and the CSP), starts the dev server `npm run dev` runs on a
 * fresh store seeded by `npm run seed` (scripts/lib/dev-server.mts), warms its
 * pages, and starts the one Chromium every test file connects to.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the dev server under test, e.g. http://127.0.0.1:43127 */
    baseURL: string;
    /**
     * Origin of the production build (dist/, with Netlify's header rules) that passes every request
     * for a file it does not have (the API, on-demand pages) to the dev server: the dashboard as
     * staff get it (production React, bundled scripts) on the dev server's API and store.
     */
    buildURL: string;
    /** The shared Chromium's endpoint (helpers/browser.ts connects to it). */
    chromiumEndpoint: string;
    /** The moment the production build under test was built for (ELECTION_BUILD_NOW, an ISO date-time). */
    buildNow: string;
  }
}

/** The deploy ID the production build under test is made with, as Netlify gives each build one. */
export const TEST_DEPLOY_ID = 'test-deploy';
/** The donation provider the production build under test is configured with (csp.test.ts). */
export const PROD_BUILD_DONATION_URL = 'https://secure.actblue.com/donate/avery-for-mayor-test';
/** Turnstile's documented always-pass site key: the build then loads the real widget script. */
const PROD_BUILD_TURNSTILE_SITE_KEY = '1x00000000000000000000AA';

/** The public routes and the dashboard: a test should never be a page's first visitor. */
const WARM_PATHS = [
  '/',
  '/about',
  '/platform',
  '/donate',
  '/volunteer',
  '/blog',
  '/contact',
  '/admin',
  // The Spanish pages too.
  '/es',
  '/es/about',
  '/es/platform',
  '/es/donate',
  '/es/volunteer',
  '/es/blog',
  '/es/contact',
];

/** What the run's browser projects share: one build, one dev server, one Chromium. */
interface Started {
  baseURL: string;
  buildURL: string;
  chromiumEndpoint: string;
  buildNow: string;
  stop: () => Promise<void>;
}

/**
 * The site under test has an election ahead (tests/helpers/election.ts FUTURE_CALENDAR: registration open until
 * December 2030), so the plan to vote takes plans: the build and the dev server render it
 * (ELECTION_BUILD_CALENDAR) and the seed stores it, so the endpoints agree (docs/decisions/157-election-calendar.md).
 * The other stages are walked by tests/pages/election-pages.test.ts.
 */
function electionCalendarFile(root: string): string {
  const dir = join(root, 'tests', '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'election-calendar.json');
  writeFileSync(file, JSON.stringify(FUTURE_CALENDAR));
  return file;
}

async function start(root: string): Promise<Started> {
  // Where the setup's time goes, printed once per run (docs/benchmarks.md, "Development loop").
  const phases: string[] = [];
  let lap = performance.now();
  const mark = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${((now - lap) / 1000).toFixed(0)} s`);
    lap = now;
  };
  const election = { ELECTION_BUILD_CALENDAR: electionCalendarFile(root) };
  // The build's moment, fixed so that a test knows exactly what the built pages say (the countdown's day).
  const buildNow = new Date().toISOString();
  // First and alone: a build beside a running dev server could make it restart.
  await npmRun(
    root,
    'build',
    childEnv({
      APP_ENV: 'production',
      // Built as Netlify builds a deploy preview: production settings, the placeholder content kept
      // (a production context would be refused by the launch gate: docs/decisions/085-launch-gate.md).
      CONTEXT: 'deploy-preview',
      // Netlify sets this on every build; asset URLs then carry ?dpl= (skew protection: caching.test.ts).
      DEPLOY_ID: TEST_DEPLOY_ID,
      PUBLIC_DONATION_URL: PROD_BUILD_DONATION_URL,
      PUBLIC_TURNSTILE_SITE_KEY: PROD_BUILD_TURNSTILE_SITE_KEY,
      ...election,
      ELECTION_BUILD_NOW: buildNow,
    }),
  );
  // The dev server empties the build's on-demand function: keep a copy for the tests of production responses.
  keepBuiltFunction(root);
  mark('production build');
  // Everything the dev server says goes to tests/.tmp/astro-dev.log, for a failing test's post-mortem.
  const dev = await startDevServer({
    root,
    logFile: join(root, 'tests', '.tmp', 'astro-dev.log'),
    env: election,
  });
  let browserServer: Awaited<ReturnType<typeof chromium.launchServer>>;
  const build = await serveProductionBuild(root, { fallback: dev.baseURL });
  try {
    mark('seed and dev server');
    await warm(dev.baseURL, WARM_PATHS);
    mark('first page loads');
    browserServer = await chromium.launchServer({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  } catch (error) {
    await build.close();
    await dev.stop();
    throw error;
  }
  console.log(`browser tests' setup: ${phases.join(', ')}`);
  return {
    baseURL: dev.baseURL,
    buildURL: build.url,
    chromiumEndpoint: browserServer.wsEndpoint(),
    buildNow,
    stop: async () => {
      await browserServer.close();
      await build.close();
      await dev.stop();
    },
  };
}

/*
 * Two projects run this setup (`browser` and `browser-alone`, vitest.config.ts) in the one vitest
 * process; they share what it starts, and the last teardown stops it. Held on globalThis because
 * each project may load this module on its own.
 */
const SHARED = Symbol.for('campaign-site.browser-setup');
interface Shared {
  started: Promise<Started>;
  users: number;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as { [SHARED]?: Shared };
  const shared = (holder[SHARED] ??= { started: start(project.config.root), users: 0 });
  shared.users += 1;
  const { baseURL, buildURL, chromiumEndpoint, buildNow } = await shared.started;
  project.provide('baseURL', baseURL);
  project.provide('buildNow', buildNow);
  project.provide('buildURL', buildURL);
  project.provide('chromiumEndpoint', chromiumEndpoint);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await (await shared.started).stop();
  };
}
