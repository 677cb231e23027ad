import { defineConfig } from 'vitest/config';

// Three projects: pure unit tests, API tests (real handlers against a real local
// Blobs server) and browser tests (Chromium driving the dev server).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/browser/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for what a person would see; on a busy machine a render after a fetch
          // can take seconds, so poll for up to 15 s (the default, 1 s, made tests flaky under load).
          expect: { poll: { timeout: 15_000 } },
          // One dev server and one Chromium are shared; run files one at a time on 2 cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
