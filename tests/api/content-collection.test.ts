import { setTestBudgets } from '../../src/lib/server/time-budgets.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as news from '../../netlify/functions/news.mts';
import * as eventsFn from '../../netlify/functions/events.mts';
import type { Article } from '../../src/lib/schemas/article.ts';
import { articles, createArticle } from '../../src/lib/server/content/articles.ts';
import { ArticleInputSchema } from '../../src/lib/schemas/article.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { call } from '../helpers/http.ts';

/** MemoryKV that counts reads and can refuse index writes. */
class ProbeKV extends MemoryKV {
  gets: string[] = [];
  refuseIndex = false;
  override async get<T>(k: string) {
    this.gets.push(k);
    return super.get<T>(k);
  }
  override async replace(k: string, value: unknown, etag: string) {
    if (this.refuseIndex && k === 'index') return null;
    return super.replace(k, value, etag);
  }
}

let stores: Map<StoreName, ProbeKV>;
const probe = (name: StoreName) => stores.get(name)!;

beforeAll(() => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
});
beforeEach(() => {
  stores = new Map();
  setStoreFactory((name): KV => {
    const s = new ProbeKV();
    stores.set(name, s);
    return s;
  });
});
afterAll(() => setStoreFactory(null));

const input = (i: number, over: Record<string, unknown> = {}) =>
  ArticleInputSchema.parse({
    title: `Post ${i}`,
    slug: `post-${i}`,
    content: `<p>${'Body text. '.repeat(50)}</p>`,
    author: 'Press Office',
    isPublished: true,
    ...over,
  });

describe('content collection: index and views', () => {
  it('GET /api/news reads one blob, whatever the number of articles', async () => {
    for (let i = 0; i < 120; i++)
      await createArticle(
        input(i, { publishedAt: new Date(Date.UTC(2025, 0, 1) + i * 3600_000).toISOString() }),
      );
    probe('articles').gets = [];
    const res = await call(news, '/api/news');
    const body = (await res.json()) as { articles: Article[] };
    expect(probe('articles').gets).toEqual(['view/public']);
    // Newest first, capped at 50.
    expect(body.articles).toHaveLength(50);
    expect(body.articles[0]?.title).toBe('Post 119');
    expect(body.articles[49]?.title).toBe('Post 70');
  });

  it('a missing index (and view) is rebuilt from the records on the next read', async () => {
    const a = await createArticle(input(1));
    const b = await createArticle(input(2, { isPublished: false }));
    await probe('articles').delete('index');
    await probe('articles').delete('view/public');
    expect((await articles.list()).map((x) => x.id)).toEqual([a.id, b.id]);
    const res = (await (await call(news, '/api/news')).json()) as { articles: Article[] };
    expect(res.articles.map((x) => x.id)).toEqual([a.id]);
    expect(await probe('articles').get('index')).not.toBeNull();
  });

  it('a write that finds no index rebuilds it including itself', async () => {
    await createArticle(input(1));
    await probe('articles').delete('index');
    const c = await createArticle(input(3));
    expect((await articles.list()).map((x) => x.id)).toContain(c.id);
  });

  it('when the index update keeps failing, the index is dropped and the next read rebuilds it correctly', async () => {
    const a = await createArticle(input(1));
    probe('articles').refuseIndex = true;
    const errors: unknown[] = [];
    const orig = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    // Local mode waits out contention for up to a minute; this test's index never frees up.
    setTestBudgets({ casRetryMs: 500 });
    let b: Article;
    try {
      b = await createArticle(input(2));
    } finally {
      console.error = orig;
      setTestBudgets(null);
    }
    expect(errors.length).toBeGreaterThan(0);
    expect(await probe('articles').get('index')).toBeNull();
    expect(await probe('articles').get('view/public')).toBeNull();
    probe('articles').refuseIndex = false;
    expect((await articles.list()).map((x) => x.id)).toEqual([a.id, b.id]);
    const pub = (await (await call(news, '/api/news')).json()) as { articles: Article[] };
    expect(pub.articles.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('GET /api/events also reads one blob', async () => {
    await call(eventsFn, '/api/events');
    probe('events').gets = [];
    await call(eventsFn, '/api/events');
    expect(probe('events').gets).toEqual(['view/public']);
  });

  it('a store outage is a clean 503 with Retry-After, never a 500', async () => {
    setStoreFactory(() => {
      const s = new MemoryKV();
      s.get = async () => {
        throw new (await import('../../src/lib/server/storage/kv.ts')).StoreUnavailableError(
          new Error('down'),
        );
      };
      return s;
    });
    const orig = console.error;
    console.error = () => {};
    try {
      const res = await call(news, '/api/news');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
    } finally {
      console.error = orig;
    }
  });
});
