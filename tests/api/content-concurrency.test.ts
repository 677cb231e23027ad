import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as news from '../../netlify/functions/news.mts';
import type { Article } from '../../src/lib/schemas/article.ts';
import { articles } from '../../src/lib/server/content/articles.ts';
import { articleIndexEntry } from '../../src/lib/server/content/articles-public.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { BlobsKV } from '../../src/lib/server/storage/blobs-kv.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers } from '../helpers/content-users.ts';
import { counting, zeroCounts, type KVCounts } from '../helpers/counting-kv.ts';
import { FakeBlobsService } from '../helpers/fake-blobs-service.ts';
import { call } from '../helpers/http.ts';

const body = (over: Record<string, unknown> = {}) => ({
  title: 'Race',
  slug: 'race',
  content: '<p>v0</p>',
  author: 'Campaign Team',
  isPublished: true,
  ...over,
});

async function createArticle(editor: string, slug: string): Promise<Article> {
  const res = await call(adminNews, '/api/admin/news', {
    method: 'POST',
    json: body({ slug }),
    cookie: editor,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { article: Article }).article;
}

/** Two editors save the same loaded version at once. */
async function twoEdits(editor: string, a: Article) {
  const responses = await Promise.all(
    ['A', 'B'].map((who) =>
      call(adminNews, `/api/admin/news/${a.id}`, {
        method: 'PUT',
        json: body({ slug: a.slug, title: `Edited by ${who}`, expectedUpdatedAt: a.updatedAt }),
        cookie: editor,
      }),
    ),
  );
  const results = await Promise.all(
    responses.map(async (r) => ({
      status: r.status,
      body: (await r.json()) as { article?: Article; error?: string },
    })),
  );
  const stored = await articles.get(a.id);
  const indexed = (await articles.list()).find((x) => x.id === a.id);
  return { results, stored, indexed };
}

/**
 * Fifty editors create at once, ONE attempt each: every answer is final, so a
 * refusal would reach a person. The store conflicts retried inside the
 * requests are counted and reported.
 */
async function fiftyCreates(editor: string, prefix: string, label: string, counts: KVCounts | null) {
  const before = counts ? counts.createConflicts + counts.replaceConflicts : 0;
  const finals = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      call(adminNews, '/api/admin/news', {
        method: 'POST',
        json: body({ slug: `${prefix}-${i}`, title: `Post ${i}` }),
        cookie: editor,
      }),
    ),
  );
  const cost = counts
    ? `${counts.createConflicts + counts.replaceConflicts - before} store conflicts retried inside requests`
    : 'store conflicts not counted (queued path)';
  const statuses = finals.map((f) => f.status);
  console.info(
    `[figures] ${label}: 50 concurrent creates: ${statuses.filter((st) => st === 201).length} x 201; ${cost}`,
  );
  return Promise.all(
    finals.map(async (final) => ({
      status: final.status,
      article: ((await final.json()) as { article: Article }).article,
    })),
  );
}

/** Every store through `make`, wrapped to count conflicts. */
function countedStores(make: (name: StoreName) => KV): KVCounts {
  const counts = zeroCounts();
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = counting(make(name), counts)));
    return s;
  });
  return counts;
}

describe('production path (BlobsKV, service path) over an SDK-like fake of the service', () => {
  let editor: string;
  let service: FakeBlobsService;
  let counts: KVCounts;
  beforeAll(async () => {
    process.env.APP_ENV ??= 'test';
    resetEnv();
    service = await new FakeBlobsService().start();
    service.use();
    counts = countedStores((name) => new BlobsKV(name, { path: 'service' }));
    editor = (await makeUsers()).editor!;
  });
  afterAll(async () => {
    setStoreFactory(null);
    await service.stop();
  });

  it('two concurrent edits with the same expectedUpdatedAt: exactly one 200 and one 409 (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const a = await createArticle(editor, `race-svc-${round}`);
      const { results, stored, indexed } = await twoEdits(editor, a);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)?.body.article;
      expect(results.find((r) => r.status === 409)?.body.error).toBe(
        'This record was changed by someone else. Reload and try again.',
      );
      expect(stored).toEqual(winner);
      expect(indexed).toEqual(articleIndexEntry(winner!));
    }
  });

  it('50 concurrent creates: 50 distinct ids, all in the index and on /api/news, every one acknowledged at once', async () => {
    const created = await fiftyCreates(editor, 'svc-bulk', 'production path, SDK-like fake service', counts);
    expect(created.map((c) => c.status).filter((st) => st !== 201)).toEqual([]);
    const ids = created.map((c) => c.article.id);
    expect(new Set(ids).size).toBe(50);
    const indexIds = new Set((await articles.list()).map((a) => a.id));
    for (const id of ids) expect(indexIds.has(id)).toBe(true);
    const pub = (await (await call(news, '/api/news')).json()) as { articles: Article[] };
    for (const id of ids) expect(pub.articles.some((a) => a.id === id)).toBe(true);
    // Nothing on this path read the store without strong consistency.
    expect(service.stats.eventualReads).toBe(0);
  });
});

describe('atomic in-memory store (MemoryKV)', () => {
  let editor: string;
  beforeAll(async () => {
    process.env.APP_ENV ??= 'test';
    resetEnv();
    counts = countedStores(() => new MemoryKV());
    editor = (await makeUsers()).editor!;
  });
  afterAll(() => setStoreFactory(null));
  let counts: KVCounts;

  it('two concurrent edits with the same expectedUpdatedAt: exactly one 200 and one 409 (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const a = await createArticle(editor, `race-mem-${round}`);
      const { results, stored, indexed } = await twoEdits(editor, a);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)?.body.article;
      expect(results.find((r) => r.status === 409)?.body.error).toBe(
        'This record was changed by someone else. Reload and try again.',
      );
      expect(stored).toEqual(winner);
      // The index keeps the article's entry (no text): docs/decisions/153-storage.md.
      expect(indexed).toEqual(articleIndexEntry(winner!));
    }
  });

  it('50 concurrent creates: 50 distinct ids, all in the index and on /api/news', async () => {
    const created = await fiftyCreates(editor, 'mem-bulk', 'atomic in-memory KV', counts);
    expect(created.map((c) => c.status).filter((st) => st !== 201)).toEqual([]);
    const ids = created.map((c) => c.article.id);
    expect(new Set(ids).size).toBe(50);
    const indexIds = new Set((await articles.list()).map((a) => a.id));
    for (const id of ids) expect(indexIds.has(id)).toBe(true);
    const pub = (await (await call(news, '/api/news')).json()) as { articles: Article[] };
    for (const id of ids) expect(pub.articles.some((a) => a.id === id)).toBe(true);
  });
});

describe('real local Blobs server (writes to a key are queued in local mode, see storage/blobs-kv.ts)', () => {
  let editor: string;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startBlobs());
    editor = (await makeUsers()).editor!;
  });
  afterAll(() => stop());

  it('two concurrent edits with the same expectedUpdatedAt: exactly one 200 and one 409', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await createArticle(editor, `race-blobs-${round}`);
      const { results, stored, indexed } = await twoEdits(editor, a);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)?.body.article;
      expect(stored).toEqual(winner);
      // The index keeps the article's entry (no text): docs/decisions/153-storage.md.
      expect(indexed).toEqual(articleIndexEntry(winner!));
    }
  });

  it('50 concurrent creates: 50 distinct ids, all in the index', async () => {
    const created = await fiftyCreates(
      editor,
      'blobs-bulk',
      'real local Blobs server (local-server path)',
      null,
    );
    expect(created.map((c) => c.status).filter((st) => st !== 201)).toEqual([]);
    expect(created.every((c) => c.status === 201)).toBe(true);
    const ids = created.map((c) => c.article.id);
    expect(new Set(ids).size).toBe(50);
    const indexIds = new Set((await articles.list()).map((a) => a.id));
    for (const id of ids) expect(indexIds.has(id)).toBe(true);
  });
});
