import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, vi } from 'vitest';
import { BlobsServer } from '../../scripts/dev/blobs-listing.mts';
import { setEnvironmentContext } from '@netlify/blobs';
import { resetEnv } from '../../src/lib/server/env.ts';
import { FakeBlobsService } from './fake-blobs-service.ts';
import { localProviders, setEnv } from './forms.ts';
import { BlobsKV } from '../../src/lib/server/storage/blobs-kv.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';

/**
 * Starts a real local Blobs server on a temp directory (random port, always a
 * token: it listens on every interface) and points the SDK at it. Each call
 * uses a fresh site id, so test files never see each other's data.
 */
export async function startBlobs(): Promise<{
  stop: () => Promise<void>;
  /** Points the SDK back at this server (after another one was used). */
  use: () => void;
  siteID: string;
  url: string;
  token: string;
}> {
  const directory = await mkdtemp(join(tmpdir(), 'blobs-test-'));
  const token = randomBytes(16).toString('hex');
  const server = new BlobsServer({ directory, token, logger: () => {} });
  const { port } = await server.start();
  const siteID = `site-${randomBytes(6).toString('hex')}`;
  const url = `http://127.0.0.1:${port}`;
  const use = () => setEnvironmentContext({ siteID, token, edgeURL: url, uncachedEdgeURL: url, apiURL: url });
  use();
  process.env.APP_ENV ??= 'test';
  process.env.SITE_URL ??= 'http://localhost:4321';
  resetEnv();
  setStoreFactory(null);
  return {
    siteID,
    url,
    token,
    use,
    stop: async () => {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The preamble of an API test file, as hooks of the file: before its tests a local Blobs server of its own
 * (startBlobs) and the local providers (localProviders) with `env` on top, and with `now` the Date frozen there;
 * after them the clock real again and the server stopped (the API project's setup file, tests/helpers/api-file-state.ts,
 * puts the environment back). Call it at the top of the file, before the file's own hooks: they run after these.
 */
export function useLocalBlobs(opts: { env?: Record<string, string>; now?: Date } = {}): void {
  let blobs: Awaited<ReturnType<typeof startBlobs>> | undefined;
  beforeAll(async () => {
    blobs = await startBlobs();
    localProviders();
    if (opts.env) setEnv(opts.env);
    if (opts.now) {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(opts.now);
    }
  });
  afterAll(async () => {
    if (opts.now) vi.useRealTimers();
    await blobs?.stop();
  });
}

/** Points every store at its own atomic in-memory KV (race tests); `setStoreFactory(null)` goes back to Blobs. */
export function useMemoryStores(): void {
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
}

/**
 * Every store a BlobsKV on the service path (production's: the SDK's ETags and
 * conditional writes, no in-process queue), whatever server the SDK points at
 * (docs/decisions/153-storage.md).
 */
export function useServicePath(): void {
  setStoreFactory((name) => new BlobsKV(name, { path: 'service' }));
}

/**
 * Points the SDK at a fresh SDK-like fake of the Blobs service and every store
 * at the production path over it; `stop` points the SDK back where it was.
 */
export async function useFakeService(): Promise<{ service: FakeBlobsService; stop: () => Promise<void> }> {
  const previous = process.env.NETLIFY_BLOBS_CONTEXT;
  const service = await new FakeBlobsService().start();
  service.use();
  useServicePath();
  return {
    service,
    stop: async () => {
      setStoreFactory(null);
      if (previous !== undefined) process.env.NETLIFY_BLOBS_CONTEXT = previous;
      await service.stop();
    },
  };
}
