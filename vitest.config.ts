import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { memoryTmpdir } from './tests/memory-tmpdir.ts';
import LongestFirst, { AFTER_ALONE, ALONE_GROUP } from './tests/sequencer.ts';

// Temporary files in memory where the machine has room: every worker, the dev server and Chromium inherit it
// (tests/memory-tmpdir.ts).
const tmp = memoryTmpdir(process.env);
if (tmp) process.env.TMPDIR = tmp;

/**
 * API files whose tests still need an earlier test of the file to have run (found by running them shuffled,
 * 2026-11-29): they run in written order until each is mended; the list only shrinks
 * (tests/unit/test-hygiene.test.ts; docs/decisions/163-tests.md, "Order").
 */
export const API_IN_ORDER = ['tests/api/audit-scale.test.ts', 'tests/api/inbox-store-calls.test.ts'];

/**
 * API files that replace a module with `vi.mock`: the handlers they import must be loaded anew under the mock,
 * so they keep a module graph of their own (`isolate`); every other API file shares its worker's modules
 * (docs/decisions/163-tests.md, "Less work per check").
 */
export const API_OWN_MODULES = [
  'tests/api/cache-purge.test.ts',
  'tests/api/security-auth.test.ts',
  'tests/api/security-reauth.test.ts',
  'tests/api/shift-sequence.test.ts',
  'tests/api/event-sequence.test.ts',
];

/**
 * The unit and API projects: after the ALONE files, and the tests within each file shuffled with the seed below (a
 * test that needs an earlier one to have run fails: docs/decisions/163-tests.md, "Order").
 */
const shuffledAfterAlone = { shuffle: { tests: true }, groupOrder: AFTER_ALONE };

const api: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  // A timeout only catches a hang: on a busy machine the 200-request race tests took 11-16 s of a
  // 30 s limit (docs/decisions/163-tests.md). No test requires a speed.
  testTimeout: 120_000,
  hookTimeout: 180_000,
};

/**
 * Browser test files that change site-wide state other files rely on (and put it back): run alone, one at a time,
 * before the rest (`sequence.groupOrder`: tests/sequencer.ts). At the start the type check and the linters
 * use the core these files leave idle; run last, nothing did (docs/decisions/163-tests.md).
 */
const ALONE = [
  'tests/browser/two-factor-policy.test.ts',
  'tests/browser/past-election.test.ts',
  // Both move the stored election calendar and read it back: side by side, one read the other's dates.
  'tests/browser/election-tab.test.ts',
  'tests/browser/next-election.test.ts',
];

const browser: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  globalSetup: ['tests/browser/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // expect.poll waits for what a person would see; on a busy machine a render after a fetch
  // can take seconds, so poll for up to 15 s (the default, 1 s, made tests flaky under load).
  expect: { poll: { timeout: 15_000 } },
};

// Three kinds of test: pure unit tests, API tests (real handlers against a real local Blobs
// server) and browser tests (Chromium driving the dev server).
export default defineConfig({
  test: {
    // Three files at a time on this 2-core machine: a browser test spends most of its time waiting
    // on the dev server and Chromium, so unit, API and browser files share the cores
    // (docs/benchmarks.md, "Development loop"). The browser files share one dev server and one
    // Chromium; each file has its own browser context, and its own staff accounts where it
    // depends on what staff did.
    maxWorkers: 3,
    // Longest files first, API and browser files side by side (tests/sequencer.ts). The unit and API projects
    // shuffle the tests within each file with this seed: one fixed order, not the written one, so a run is
    // repeatable; hunt with other orders by `--sequence.seed=N` (docs/decisions/163-tests.md, "Order").
    sequence: { sequencer: LongestFirst, seed: 12 },
    projects: [
      'vitest.pages.config.ts',
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Pure code: one worker runs many files (no new process per file: 26 s of start-ups less a run).
          // A unit test that changes process state puts it back (docs/decisions/163-tests.md).
          isolate: false,
          sequence: shuffledAfterAlone,
        },
      },
      {
        test: {
          ...api,
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          exclude: [...API_IN_ORDER, ...API_OWN_MODULES],
          // One worker runs many files without loading the handlers, zod schemas and SDKs anew for each (about a
          // second of CPU a file); tests/helpers/api-file-state.ts puts back after each file what a file may
          // change (environment, stores, test hooks, clock), so each file starts as in a fresh process.
          isolate: false,
          setupFiles: ['tests/helpers/api-file-state.ts'],
          sequence: shuffledAfterAlone,
        },
      },
      {
        test: {
          ...api,
          name: 'api-own-modules',
          include: API_OWN_MODULES,
          sequence: shuffledAfterAlone,
        },
      },
      {
        test: { ...api, name: 'api-in-order', include: API_IN_ORDER, sequence: { groupOrder: AFTER_ALONE } },
      },
      {
        test: {
          ...browser,
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          exclude: ALONE,
          // A worker runs many files without loading vitest, playwright-core and the helpers anew for each (about
          // half a second of CPU a file) and keeps its connection to the shared Chromium. Each file still makes its
          // own browser context; no helper keeps state a file could change for the next (docs/decisions/163-tests.md).
          isolate: false,
          sequence: { groupOrder: AFTER_ALONE },
        },
      },
      {
        test: {
          ...browser,
          name: 'browser-alone',
          include: ALONE,
          // Before any file above starts, one at a time.
          fileParallelism: false,
          sequence: { groupOrder: ALONE_GROUP },
        },
      },
    ],
  },
});
