import { getStore } from '@netlify/blobs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '../../src/lib/server/env.ts';
import { BlobsKV, blobsPath, blobsPathFor } from '../../src/lib/server/storage/blobs-kv.ts';
import { update, upsert } from '../../src/lib/server/storage/compare-and-set.ts';
import { StoreUnavailableError } from '../../src/lib/server/storage/kv.ts';
import { readAll } from '../../src/lib/server/storage/listing.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { counting, zeroCounts } from '../helpers/counting-kv.ts';
import { FAKE_LIST_PAGE, FakeBlobsService } from '../helpers/fake-blobs-service.ts';

/**
 * The production store path (BlobsKV on the service path: getWithMetadata,
 * setJSON with onlyIfMatch / onlyIfNew, the empty-ETag trap) run against
 * (1) the real local Blobs server, through its real conditional writes, one
 * writer at a time (they are not atomic there), and (2) a fake of the service
 * where it and the local server differ. Which guarantee each store proves:
 * docs/decisions/153-storage.md.
 */

describe('which path a BlobsKV takes (an explicit switch)', () => {
  it('production never takes the local path, whatever the endpoint', () => {
    for (const url of ['http://127.0.0.1:1234', 'http://localhost:1', 'http://[::1]:9', undefined])
      expect(blobsPathFor('production', url)).toBe('service');
  });

  it('development and test take the local path only against a server on this machine', () => {
    for (const env of ['development', 'test']) {
      expect(blobsPathFor(env, 'http://127.0.0.1:1234')).toBe('local-server');
      expect(blobsPathFor(env, 'http://localhost:4321')).toBe('local-server');
      expect(blobsPathFor(env, 'http://[::1]:4321')).toBe('local-server');
      // A script run against a deployed site (no edge URL, or Netlify's) keeps the service path.
      expect(blobsPathFor(env, undefined)).toBe('service');
      expect(blobsPathFor(env, 'https://edge.netlify.example')).toBe('service');
      expect(blobsPathFor(env, 'not a url')).toBe('service');
    }
    expect(blobsPathFor('', 'http://127.0.0.1:1')).toBe('service');
  });

  it('reads APP_ENV and the SDK context of this process; a store forced to the service path stays there', async () => {
    const blobs = await startBlobs();
    const saved = process.env.APP_ENV;
    try {
      expect(blobsPath()).toBe('local-server');
      expect(new BlobsKV('meta').path).toBe('local-server');
      expect(new BlobsKV('meta', { path: 'service' }).path).toBe('service');
      process.env.APP_ENV = 'production';
      resetEnv();
      expect(blobsPath()).toBe('service');
      expect(new BlobsKV('meta').path).toBe('service');
    } finally {
      process.env.APP_ENV = saved;
      resetEnv();
      await blobs.stop();
    }
  });
});

describe('the production path against the real local Blobs server (one writer at a time)', () => {
  let blobs: Awaited<ReturnType<typeof startBlobs>>;
  let store: BlobsKV;
  beforeAll(async () => {
    blobs = await startBlobs();
    store = new BlobsKV('meta', { path: 'service' });
  });
  afterAll(() => blobs.stop());

  /** The local server's ETag for a key comes only from list() (its GET sends none). */
  async function etagOf(k: string): Promise<string> {
    const { blobs: listed } = await getStore({ name: 'meta', consistency: 'strong' }).list({ prefix: k });
    const e = listed.find((b) => b.key === k)?.etag;
    if (!e) throw new Error(`no etag listed for ${k}`);
    return e;
  }

  it('onlyIfNew reaches the server: a second create of a key is refused', async () => {
    expect(await store.create('local/new', { v: 1 })).toBe(true);
    expect(await store.create('local/new', { v: 2 })).toBe(false);
    expect(
      await getStore({ name: 'meta', consistency: 'strong' }).get('local/new', { type: 'json' }),
    ).toEqual({
      v: 1,
    });
  });

  it('onlyIfMatch reaches the server: a replace with another ETag is refused and changes nothing; the current one wins', async () => {
    await store.create('local/cas', { v: 0 });
    expect(await store.replace('local/cas', { v: 9 }, '"not-this-one"')).toBeNull();
    expect(await store.replace('local/missing', { v: 9 }, '"any"')).toBeNull();
    const sdk = getStore({ name: 'meta', consistency: 'strong' });
    expect(await sdk.get('local/cas', { type: 'json' })).toEqual({ v: 0 });
    expect(await sdk.get('local/missing')).toBeNull();
    const next = await store.replace('local/cas', { v: 1 }, await etagOf('local/cas'));
    expect(next).toBeTruthy();
    expect(await sdk.get('local/cas', { type: 'json' })).toEqual({ v: 1 });
  });

  it('putBytes is create-only too', async () => {
    const bytes = new TextEncoder().encode('x').buffer;
    expect(await store.putBytes('local/bytes', bytes, { contentType: 'text/plain' })).toBe(true);
    expect(await store.putBytes('local/bytes', bytes, { contentType: 'text/plain' })).toBe(false);
    expect((await store.getBytes('local/bytes'))?.metadata).toEqual({ contentType: 'text/plain' });
  });

  it('a read that comes back without an ETag is a store fault (503), never a record that cannot be updated safely', async () => {
    // The local server's GET sends no ETag: exactly the answer the production path must refuse.
    await store.create('local/etagless', { v: 1 });
    await expect(store.get('local/etagless')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await store.get('local/absent')).toBeNull();
  });
});

describe('the production path against an SDK-like fake of the service', () => {
  let service: FakeBlobsService;
  const make = () => new BlobsKV('meta', { path: 'service' });
  beforeAll(async () => {
    process.env.APP_ENV ??= 'test';
    resetEnv();
    service = await new FakeBlobsService().start();
    service.use();
    setStoreFactory(null);
  });
  afterEach(() => service.clearFaults());
  afterAll(() => service.stop());

  it('reads carry the ETag; a stale ETag is refused (412 -> null) and the current one wins', async () => {
    const store = make();
    expect(await store.create('fake/cas', { v: 0 })).toBe(true);
    const first = await store.get<{ v: number }>('fake/cas');
    expect(first).toMatchObject({ value: { v: 0 } });
    const second = await store.replace('fake/cas', { v: 1 }, first!.etag);
    expect(second).toBeTruthy();
    expect(await store.replace('fake/cas', { v: 2 }, first!.etag)).toBeNull();
    expect(await store.get('fake/cas')).toEqual({ value: { v: 1 }, etag: second });
  });

  it('of 20 writers with one ETag exactly one wins; 30 counter updates lose nothing', async () => {
    const store = make();
    await store.create('fake/race', { v: 0 });
    const cur = await store.get<{ v: number }>('fake/race');
    service.resetStats();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.replace('fake/race', { v: i + 1 }, cur!.etag)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(service.stats.preconditionFailed).toBe(19);
    await store.create('fake/counter', { n: 0 });
    const counts = zeroCounts();
    const counted = counting(store, counts);
    await Promise.all(
      Array.from({ length: 30 }, () =>
        update<{ n: number }>(counted, 'fake/counter', (c) => ({ n: c.n + 1 })),
      ),
    );
    expect((await store.get<{ n: number }>('fake/counter'))?.value.n).toBe(30);
    // Every conflict was a lost compare-and-set that was retried, never a lost increment.
    expect(counts.replaces - counts.replaceConflicts).toBe(30);
    console.info(
      `[store] 30 concurrent counter updates on the fake service: ${counts.replaceConflicts} conflicts retried`,
    );
  });

  it('a write that loses a race in flight gets 412: replace answers null, update() retries and keeps both changes', async () => {
    const store = make();
    await store.create('fake/lost', { n: 0 });
    const cur = await store.get<{ n: number }>('fake/lost');
    service.loseNextRace('fake/lost');
    expect(await store.replace('fake/lost', { n: 1 }, cur!.etag)).toBeNull();
    service.loseNextRace('fake/lost');
    const counts = zeroCounts();
    await update<{ n: number }>(counting(store, counts), 'fake/lost', (c) => ({ n: c.n + 1 }));
    expect(counts).toMatchObject({ replaces: 2, replaceConflicts: 1 });
    expect((await store.get<{ n: number }>('fake/lost'))?.value.n).toBe(1);
  });

  it('the empty-ETag trap: a conditional write failing with a 5xx is a store fault (503), never "exists" or "changed"', async () => {
    const store = make();
    // storeFetch does not retry a conditional write after a 5xx; the SDK then reports { modified: true, etag: '' }.
    const conditionalPut = ({ method, conditional }: { method: string; conditional: boolean }) =>
      method === 'PUT' && conditional;
    service.fault({ match: conditionalPut, status: 500, times: 1 });
    await expect(store.create('fake/trap', { v: 0 })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await store.create('fake/trap', { v: 0 })).toBe(true);
    const cur = await store.get<{ v: number }>('fake/trap');
    service.fault({ match: conditionalPut, status: 503, times: 1 });
    await expect(store.replace('fake/trap', { v: 1 }, cur!.etag)).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    service.fault({ match: conditionalPut, status: 502, times: 1 });
    await expect(upsert<{ v: number }>(store, 'fake/trap-new', () => ({ v: 1 }))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    service.fault({ match: conditionalPut, status: 500, times: 1 });
    const bytes = new TextEncoder().encode('x').buffer;
    await expect(store.putBytes('fake/trap-bytes', bytes, {})).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(service.keysOf('meta').filter((k) => k.startsWith('fake/trap'))).toEqual(['fake/trap']);
    expect((await store.get<{ v: number }>('fake/trap'))?.value.v).toBe(0);
  });

  it('a conditional write applied but answered 5xx is never retried into a doubled change', async () => {
    const store = make();
    await store.create('fake/once', { n: 0 });
    // The service applies the write, then the answer is lost (a 500). Retrying the same
    // conditional write would meet its own ETag change (412), and update() would apply
    // the change again on top of itself.
    service.fault({
      match: ({ method, key }) => method === 'PUT' && key === 'fake/once',
      status: 500,
      times: 1,
      applied: true,
    });
    await expect(update<{ n: number }>(store, 'fake/once', (c) => ({ n: c.n + 1 }))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect((await store.get<{ n: number }>('fake/once'))?.value.n).toBe(1);
    // A create whose answer was lost is a store fault too, not "someone else created it".
    service.fault({
      match: ({ method, key }) => method === 'PUT' && key === 'fake/once-new',
      status: 502,
      times: 1,
      applied: true,
    });
    await expect(store.create('fake/once-new', { n: 1 })).rejects.toBeInstanceOf(StoreUnavailableError);
    // A 429 is a refusal before any write: retried once, as before.
    service.fault({
      match: ({ method, key }) => method === 'PUT' && key === 'fake/once',
      status: 429,
      times: 1,
    });
    expect(await update<{ n: number }>(store, 'fake/once', (c) => ({ n: c.n + 1 }))).toEqual({ n: 2 });
  });

  it('reads without strong consistency are stale for a while; every read of the store is strong', async () => {
    const store = make();
    await store.create('fake/fresh', { v: 1 });
    service.propagate();
    const cur = await store.get<{ v: number }>('fake/fresh');
    await store.replace('fake/fresh', { v: 2 }, cur!.etag);
    const eventual = getStore({ name: 'meta', consistency: 'eventual' });
    expect(await eventual.get('fake/fresh', { type: 'json' })).toEqual({ v: 1 });
    service.resetStats();
    expect((await store.get<{ v: number }>('fake/fresh'))?.value.v).toBe(2);
    await readAll(store, 'fake/');
    expect(service.stats.reads).toBeGreaterThan(0);
    expect(service.stats.eventualReads).toBe(0);
    service.propagate();
    expect(await eventual.get('fake/fresh', { type: 'json' })).toEqual({ v: 2 });
  });

  it(`lists come ${FAKE_LIST_PAGE} keys a page and every page is read`, async () => {
    const entries = Object.fromEntries(
      Array.from({ length: 2500 }, (_, i) => [`paged/${String(i).padStart(5, '0')}`, { i }]),
    );
    service.seed('meta', entries);
    const pages: number[] = [];
    for await (const page of make().keys('paged/')) pages.push(page.length);
    expect(pages).toEqual([1000, 1000, 500]);
    const all = await readAll<{ i: number }>(make(), 'paged/');
    expect(all.map((x) => x.i).sort((a, b) => a - b)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
  });
});
