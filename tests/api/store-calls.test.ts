import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as eventsFn from '../../netlify/functions/events.mts';
import * as news from '../../netlify/functions/news.mts';
import { articleSourceHash, type Article } from '../../src/lib/schemas/article.ts';
import type { CampaignEvent } from '../../src/lib/schemas/event.ts';
import { articles } from '../../src/lib/server/content/articles.ts';
import { campaignToday, events } from '../../src/lib/server/content/events.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { loadArchive, loadArticle, loadBlog } from '../../src/lib/server/public/page-data.ts';
import { bumpCounter } from '../../src/lib/server/storage/counters.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * What a request costs in store calls, with 5,000 articles in the store, on
 * the atomic in-memory store behind a counting wrapper (every get, write,
 * delete, key listing and listed page counts). The bounds are the design's
 * (docs/decisions/153-storage.md): they
 * do not grow with the number of articles.
 */

/** Store calls per request, at any number of articles. */
const BOUNDS = {
  /** The feed view. */
  news: 1,
  /** The articles index and the events view. */
  blog: 2,
  /** The articles index. */
  archivePage: 1,
  /** The slug claim and the record. */
  articlePage: 2,
  /** The events view. */
  events: 1,
  /**
   * An article save through PUT /api/admin/news/:id, everything included: the
   * session and the user, the record (read, CAS), the index (read, CAS), the
   * feed view (read, CAS), the slug claims, the revision, the audit entry and
   * its anchors. Measured 20 (2026-11-25); the margin is for audit changes.
   */
  articleSave: 24,
  /** The admin list's first page: the index, pageSize (50) records, the session and the user (measured 53). */
  adminListPage: 56,
} as const;

const ARTICLES = 5000;
const body = `<p>${'Drainage, streets and the budget, block by block. '.repeat(60)}</p>`;

function article(id: number): Article {
  const at = new Date(Date.UTC(2024, 0, 1) + id * 3_600_000).toISOString();
  const english = {
    title: `Neighborhood report ${id}`,
    excerpt: `What we heard in neighborhood ${id}.`,
    content: body,
  };
  const es =
    id % 3 === 0
      ? {
          es: {
            title: `Informe del barrio ${id}`,
            slug: `informe-${id}`,
            excerpt: `Lo que escuchamos en el barrio ${id}.`,
            content: `<p>${'Drenaje y calles. '.repeat(100)}</p>`,
            sourceHash: articleSourceHash(english),
            sourceUpdatedAt: at,
            updatedAt: at,
          },
        }
      : {};
  return {
    id,
    ...english,
    imageUrl: '',
    author: id % 2 ? 'Press Office' : 'Jordan Avery',
    slug: `report-${id}`,
    isPublished: id % 10 !== 0,
    publishedAt: id % 10 !== 0 ? at : null,
    createdAt: at,
    updatedAt: at,
    translations: es,
  };
}

function event(id: number, days: number): CampaignEvent {
  const now = new Date();
  return {
    id,
    title: `Town hall ${id}`,
    description: 'An open meeting.',
    location: 'Gentilly Terrace Community Center',
    eventDate: campaignToday(new Date(now.getTime() + days * 86_400_000)),
    startTime: '18:30',
    endTime: '',
    eventType: 'town_hall',
    isPublic: true,
    maxAttendees: null,
    registrationRequired: false,
    registrationUrl: '',
    contactEmail: 'events@example.org',
    notes: '',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    translations: {},
  };
}

const response = () => ({ status: undefined as number | undefined, headers: new Headers() });
const json = async (res: Response) => JSON.stringify(await res.json());

let counting: CountingStores;
let editor: string;

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  counting = useCountingStores();
  const store = kv('articles');
  // Records and slug claims written straight into the store (what 5,000 saves would leave), then indexed once.
  for (let id = 1; id <= ARTICLES; id++) {
    const a = article(id);
    await store.put(`record/${id}`, a);
    for (const slug of [a.slug, ...Object.values(a.translations).map((t) => t.slug)])
      await store.put(`slug/${slug}`, { id, claimedAt: a.createdAt });
  }
  await bumpCounter('articles', ARTICLES);
  await articles.reindex();
  for (let id = 1; id <= 20; id++) await kv('events').put(`record/${id}`, event(id, id - 5));
  await bumpCounter('events', 20);
  await events.reindex();
  editor = (await signedIn('editor')).cookie;
}, 120_000);
afterAll(() => setStoreFactory(null));

/** Runs `work` and returns its store calls (every store). */
async function cost(work: () => Promise<unknown>): Promise<number> {
  counting.reset();
  await work();
  // SHOW_CALLS=1 prints each measured request (for docs/decisions).
  if (process.env.SHOW_CALLS) console.log(counting.calls(), JSON.stringify(counting.counts()));
  return counting.calls();
}

describe(`store calls per request with ${ARTICLES} articles (counting store)`, () => {
  it('the articles index holds summaries, not text: far smaller than the articles', async () => {
    const index = JSON.stringify((await kv('articles').get('index'))!.value);
    const text = ARTICLES * body.length;
    expect(index.length).toBeLessThan(text / 5);
    expect(index).not.toContain('Drainage, streets');
  });

  it(`GET /api/news: ${BOUNDS.news} call`, async () => {
    let res!: Response;
    expect(await cost(async () => (res = await call(news, '/api/news')))).toBeLessThanOrEqual(BOUNDS.news);
    const list = ((await res.json()) as { articles: Article[] }).articles;
    expect(list).toHaveLength(50);
    expect(list[0]?.id).toBe(ARTICLES - 1);
    expect(list[0]?.content).toBe(body);
  });

  it(`the blog's data: ${BOUNDS.blog} calls; an archive page: ${BOUNDS.archivePage}`, async () => {
    let blog!: Awaited<ReturnType<typeof loadBlog>>;
    expect(await cost(async () => (blog = await loadBlog(response(), 'es')))).toBeLessThanOrEqual(
      BOUNDS.blog,
    );
    expect(blog.unavailable).toBe(false);
    expect(blog.articles[0]?.id).toBe(ARTICLES - 1);
    expect(blog.articles.find((a) => a.id === 4998)?.title).toBe('Informe del barrio 4998');
    expect(blog.pages).toBe(Math.ceil((ARTICLES * 9) / 10 / 9));
    const r = response();
    expect(await cost(() => loadArchive(r, '7', 'en'))).toBeLessThanOrEqual(BOUNDS.archivePage);
    expect(r.status).toBeUndefined();
  });

  it(`the article page: ${BOUNDS.articlePage} calls, in either language`, async () => {
    let page!: Awaited<ReturnType<typeof loadArticle>>;
    expect(
      await cost(async () => (page = await loadArticle(response(), 'report-4321', 'en'))),
    ).toBeLessThanOrEqual(BOUNDS.articlePage);
    expect(page.article?.content).toBe(body);
    expect(
      await cost(async () => (page = await loadArticle(response(), 'informe-4323', 'es'))),
    ).toBeLessThanOrEqual(BOUNDS.articlePage);
    expect(page.article?.title).toBe('Informe del barrio 4323');
  });

  it(`GET /api/events: ${BOUNDS.events} call`, async () => {
    let res!: Response;
    expect(await cost(async () => (res = await call(eventsFn, '/api/events')))).toBeLessThanOrEqual(
      BOUNDS.events,
    );
    expect(((await res.json()) as { events: unknown[] }).events).toHaveLength(16);
  });

  it(`an article save: at most ${BOUNDS.articleSave} calls, and no other article is read`, async () => {
    const cur = article(4321);
    const save = (over: Record<string, unknown>) =>
      call(adminNews, `/api/admin/news/${cur.id}`, {
        method: 'PUT',
        cookie: editor,
        json: {
          title: cur.title,
          slug: cur.slug,
          content: '<p>Updated.</p>',
          excerpt: cur.excerpt,
          author: cur.author,
          isPublished: true,
          ...over,
        },
      });
    // The article is put back as it was, for the tests that read it.
    onTestFinished(async () => {
      expect((await save({ title: cur.title, content: cur.content })).status).toBe(200);
    });
    let res!: Response;
    const calls = await cost(async () => (res = await save({ title: 'Renamed report' })));
    expect(res.status).toBe(200);
    expect(calls).toBeLessThanOrEqual(BOUNDS.articleSave);
    const read = counting.store('articles').reads.filter((k) => k.startsWith('record/'));
    expect(new Set(read)).toEqual(new Set(['record/4321']));
    // The newest article's save also changes the feed: still only its own record is read.
    const newest = article(ARTICLES - 1);
    const saveNewest = (content: string) =>
      call(adminNews, `/api/admin/news/${newest.id}`, {
        method: 'PUT',
        cookie: editor,
        json: {
          ...newest,
          content,
          translations: undefined,
          id: undefined,
          createdAt: undefined,
          updatedAt: undefined,
        },
      });
    // The feed's first article is put back as it was, for the tests that read it.
    onTestFinished(async () => {
      expect((await saveNewest(newest.content)).status).toBe(200);
    });
    counting.reset();
    const res2 = await saveNewest('<p>Fresh.</p>');
    expect(res2.status).toBe(200);
    expect(counting.calls()).toBeLessThanOrEqual(BOUNDS.articleSave);
    expect(new Set(counting.store('articles').reads.filter((k) => k.startsWith('record/')))).toEqual(
      new Set([`record/${newest.id}`]),
    );
    const feed = ((await (await call(news, '/api/news')).json()) as { articles: Article[] }).articles;
    expect(feed[0]?.content).toBe('<p>Fresh.</p>');
  });

  it(`the admin list's first page: at most ${BOUNDS.adminListPage} calls`, async () => {
    let res!: Response;
    expect(
      await cost(async () => (res = await call(adminNews, '/api/admin/news', { cookie: editor }))),
    ).toBeLessThanOrEqual(BOUNDS.adminListPage);
    const page = (await res.json()) as { articles: Article[]; total: number };
    expect(page.total).toBe(ARTICLES);
    expect(page.articles).toHaveLength(50);
    expect(page.articles[0]?.content).toBeTruthy();
  });
});

describe('indexes that repair themselves (counting store)', () => {
  const corruptions: [string, unknown][] = [
    ['deleted', undefined],
    ['not an index', { rev: 1, items: 'garbage' }],
    ['entries without ids', { v: 2, rev: 1, items: [{ title: 'x' }] }],
    ['an older entry version (whole articles)', { rev: 1, items: [article(1)] }],
  ];

  for (const [what, bad] of corruptions) {
    it(`articles index ${what}: the first request repairs it (once, stored), the next is cheap and the answers are unchanged`, async () => {
      const before = await json(await call(news, '/api/news?lang=es'));
      const blogBefore = JSON.stringify((await loadBlog(response(), 'en')).articles);
      const store = kv('articles');
      await store.delete('view/public');
      if (bad === undefined) await store.delete('index');
      else await store.put('index', bad);
      const warn = console.warn;
      console.warn = () => {};
      let first!: string;
      try {
        const repairCalls = await cost(
          async () => (first = await json(await call(news, '/api/news?lang=es'))),
        );
        // One read per record (the repair), once: a single listing of the records.
        expect(repairCalls).toBeGreaterThan(ARTICLES);
        expect(counting.counts().list).toBe(1);
      } finally {
        console.warn = warn;
      }
      expect(first).toBe(before);
      expect(await cost(() => call(news, '/api/news?lang=es'))).toBeLessThanOrEqual(BOUNDS.news);
      let blog!: Awaited<ReturnType<typeof loadBlog>>;
      expect(await cost(async () => (blog = await loadBlog(response(), 'en')))).toBeLessThanOrEqual(
        BOUNDS.blog,
      );
      expect(JSON.stringify(blog.articles)).toBe(blogBefore);
    }, 60_000);
  }

  it('the blog repairs a broken articles index too, and the feed view comes back with it', async () => {
    const blogBefore = JSON.stringify((await loadBlog(response(), 'es')).articles);
    const store = kv('articles');
    await store.put('index', { rev: 1, items: null });
    await store.delete('view/public');
    const warn = console.warn;
    console.warn = () => {};
    try {
      const blog = await loadBlog(response(), 'es');
      expect(JSON.stringify(blog.articles)).toBe(blogBefore);
    } finally {
      console.warn = warn;
    }
    expect(await cost(() => loadBlog(response(), 'es'))).toBeLessThanOrEqual(BOUNDS.blog);
    expect(await cost(() => call(news, '/api/news'))).toBeLessThanOrEqual(BOUNDS.news);
  });

  it('a corrupt feed view is derived again from the index and replaced: the next request is one call', async () => {
    const before = await json(await call(news, '/api/news'));
    await kv('articles').put('view/public', { rev: Number.MAX_SAFE_INTEGER, data: 'garbage' });
    expect(await json(await call(news, '/api/news'))).toBe(before);
    expect(await cost(() => call(news, '/api/news'))).toBeLessThanOrEqual(BOUNDS.news);
    await kv('events').put('view/public', { rev: 1, data: [{ no: 'id' }] });
    const events = await json(await call(eventsFn, '/api/events'));
    expect(JSON.parse(events)).toMatchObject({ events: { length: 16 } });
    expect(await cost(() => call(eventsFn, '/api/events'))).toBeLessThanOrEqual(BOUNDS.events);
  });

  for (const [what, bad] of [
    ['deleted', undefined],
    ['not an index', { rev: 'x', items: {} }],
  ] as const) {
    it(`events index ${what}: repaired once by GET /api/events, then one call`, async () => {
      const before = await json(await call(eventsFn, '/api/events?lang=es'));
      const store = kv('events');
      await store.delete('view/public');
      if (bad === undefined) await store.delete('index');
      else await store.put('index', bad);
      const warn = console.warn;
      console.warn = () => {};
      try {
        expect(await json(await call(eventsFn, '/api/events?lang=es'))).toBe(before);
      } finally {
        console.warn = warn;
      }
      expect(await cost(() => call(eventsFn, '/api/events'))).toBeLessThanOrEqual(BOUNDS.events);
      const index = (await kv('events').get<{ items: unknown }>('index'))?.value;
      expect(Array.isArray(index?.items)).toBe(true);
    });
  }
});
