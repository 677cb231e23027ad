import { afterAll, beforeAll, vi } from 'vitest';
import { setCachePurger } from '../../src/lib/server/content/responses.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { setExportKicker, setExportLimits } from '../../src/lib/server/exports/exports.ts';
import { forgetDecodedBlobs } from '../../src/lib/server/storage/summary-index/blob-cache.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { setTestBudgets } from '../../src/lib/server/time-budgets.ts';

/**
 * The API project's setup file (vitest.config.ts). Its files share one worker's modules, one after another
 * (`isolate: false`: each file no longer imports the handlers and their schemas anew, about a second of CPU a
 * file), so each file starts from what a fresh process has: this puts back, after every file, the process
 * state an API test may change (the environment, the store factory and its memo, the decoded chunks kept by a
 * warm instance, the test hooks' overrides, the clock). docs/decisions/163-tests.md, "Less work per check".
 */
let env: NodeJS.ProcessEnv = {};

beforeAll(() => {
  env = { ...process.env };
  resetEnv();
});

afterAll(() => {
  vi.useRealTimers();
  // The hooks refuse outside APP_ENV=test: put them back while the file's environment still says so.
  process.env.APP_ENV = 'test';
  resetEnv();
  setTestBudgets(null);
  setExportLimits(null);
  setExportKicker(null);
  setCachePurger(null);
  setStoreFactory(null);
  forgetDecodedBlobs();
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
  resetEnv();
});
