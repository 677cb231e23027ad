import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobsKV } from '../../src/lib/server/storage/blobs-kv.ts';
import { update } from '../../src/lib/server/storage/compare-and-set.ts';
import { nextId } from '../../src/lib/server/storage/counters.ts';
import { StoreUnavailableError, type KV } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => {
  await blobs.stop();
});

// The local Blobs server here is on the local-server path (writes queued per key in-process,
// content-hash ETags): these prove that path, not Blobs' conditional writes. The production
// path is proven in store-production.test.ts (docs/decisions/153-storage.md).
describe.each([
  ['real local Blobs server, local-server path', () => new BlobsKV('meta')],
  ['atomic in-memory store', () => new MemoryKV()],
])('KV semantics (%s)', (_name, make: () => KV) => {
  it('creates a key once, however many writers race', async () => {
    const store = make();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.create('race/create', { i })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('lets exactly one of many writers with the same ETag replace a value', async () => {
    const store = make();
    await store.create('race/replace', { v: 0 });
    const cur = await store.get<{ v: number }>('race/replace');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.replace('race/replace', { v: i + 1 }, cur!.etag)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const winner = results.findIndex((r) => r !== null) + 1;
    expect((await store.get<{ v: number }>('race/replace'))?.value.v).toBe(winner);
  });

  it('loses no increment when 30 writers update one counter', async () => {
    const store = make();
    await store.create('race/counter', { n: 0 });
    await Promise.all(
      // A budget no busy machine outlasts: the property is "no increment lost", not a speed.
      Array.from({ length: 30 }, () =>
        update<{ n: number }>(store, 'race/counter', (c) => ({ n: c.n + 1 }), 120_000),
      ),
    );
    expect((await store.get<{ n: number }>('race/counter'))?.value.n).toBe(30);
  });

  it('refuses a replace without an ETag (it would be an unconditional write)', async () => {
    await expect(make().replace('race/x', {}, '')).rejects.toThrow(/ETag/);
  });
});

describe('ids', () => {
  it('allocates distinct ids under concurrency', async () => {
    const ids = await Promise.all(Array.from({ length: 25 }, () => nextId('store-test')));
    expect(new Set(ids).size).toBe(25);
  });
});

describe('a store that is down', () => {
  it('raises StoreUnavailableError (answered as 503), never a silent success', async () => {
    const down = await startBlobs();
    await down.stop();
    setStoreFactory(null);
    const store = new BlobsKV('meta');
    await expect(store.get('anything')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.create('anything', {})).rejects.toBeInstanceOf(StoreUnavailableError);
    // Point the SDK back at the live server for the other tests of this file.
    await blobs.stop();
    blobs = await startBlobs();
  });
});
