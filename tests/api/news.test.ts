import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as news from '../../netlify/functions/news.mts';
import type { Article } from '../../src/lib/schemas/article.ts';
import { publicArticleBySlug, publicArticles } from '../../src/lib/server/content/articles.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
let editor: string;
let viewer: string;

beforeAll(async () => {
  ({ stop } = await startBlobs());
  const users = await makeUsers();
  editor = users.editor!;
  viewer = users.viewer!;
});
afterAll(() => stop());

const MISSING = 'Please fill in title, slug, content, and author.';

function payload(over: Record<string, unknown> = {}) {
  return {
    title: 'Fixing Our Streets',
    slug: 'fixing-our-streets',
    content: '<p>Drainage <strong>first</strong>.</p>',
    excerpt: 'A plan.',
    imageUrl: '',
    author: 'Jordan Avery',
    isPublished: true,
    ...over,
  };
}

async function create(over: Record<string, unknown> = {}): Promise<Article> {
  const res = await call(adminNews, '/api/admin/news', {
    method: 'POST',
    json: payload(over),
    cookie: editor,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { article: Article }).article;
}

async function publicList(): Promise<Article[]> {
  const res = await call(news, '/api/news');
  expect(res.status).toBe(200);
  return ((await res.json()) as { articles: Article[] }).articles;
}

describe('POST /api/admin/news', () => {
  it('creates an article (201) with a numeric id, sanitised content and publishedAt set on first publish', async () => {
    const before = Date.now();
    const a = await create({
      slug: 'create-happy',
      content: '<p onclick="x()">Hi<script>alert(1)</script></p>',
    });
    expect(a.id).toBeGreaterThan(0);
    expect(a.content).toBe('<p>Hi</p>');
    expect(Date.parse(a.publishedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(a.createdAt).toBe(a.updatedAt);
    expect((await publicList()).map((x) => x.id)).toContain(a.id);
  });

  it('normalises the slug (spec 5): lowercase, anything outside a-z 0-9 - becomes a hyphen', async () => {
    const a = await create({ slug: '  Hello World! Été 2025 ' });
    expect(a.slug).toBe('hello-world---t--2025');
  });

  it('keeps a draft without publishedAt and off the public list', async () => {
    const a = await create({ slug: 'a-draft', isPublished: false });
    expect(a.publishedAt).toBeNull();
    expect((await publicList()).map((x) => x.id)).not.toContain(a.id);
    expect(await publicArticleBySlug('a-draft')).toBeNull();
  });

  it('keeps a future-dated article off the public list until its time', async () => {
    const future = new Date(Date.now() + 3600_000).toISOString();
    const a = await create({ slug: 'scheduled', publishedAt: future });
    expect(a.publishedAt).toBe(future);
    expect((await publicList()).map((x) => x.id)).not.toContain(a.id);
    expect(await publicArticleBySlug('scheduled')).toBeNull();
    const later = new Date(Date.now() + 2 * 3600_000);
    expect((await publicArticles('en', later)).map((x) => x.id)).toContain(a.id);
    expect((await publicArticleBySlug('scheduled', 'en', later))?.id).toBe(a.id);
  });

  it.each(['title', 'slug', 'content', 'author'])(
    '400 with the spec message when %s is missing or blank',
    async (field) => {
      for (const value of [undefined, '', '   ']) {
        const body: Record<string, unknown> = payload({ slug: `missing-${field}` });
        if (value === undefined) delete body[field];
        else body[field] = value;
        const res = await call(adminNews, '/api/admin/news', { method: 'POST', json: body, cookie: editor });
        expect(res.status).toBe(400);
        const out = (await res.json()) as { error: string; fields: Record<string, string> };
        expect(out.error).toBe(MISSING);
        expect(out.fields[field]).toBe(MISSING);
      }
    },
  );

  it('400 when the content is empty after sanitising, and nothing is stored', async () => {
    const res = await call(adminNews, '/api/admin/news', {
      method: 'POST',
      json: payload({ slug: 'only-script', content: '<script>alert(1)</script>' }),
      cookie: editor,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(MISSING);
    expect(await kv('articles').get('slug/only-script')).toBeNull();
  });

  it('400 for unknown fields, a bad imageUrl or a bad publishedAt', async () => {
    for (const extra of [
      { id: 0 },
      { hacker: true },
      { imageUrl: 'javascript:alert(1)' },
      { publishedAt: 'tomorrow' },
    ]) {
      const res = await call(adminNews, '/api/admin/news', {
        method: 'POST',
        json: payload({ slug: 'bad-extra', ...extra }),
        cookie: editor,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    }
    expect(await kv('articles').get('slug/bad-extra')).toBeNull();
  });

  it('409 for a slug that is taken (after normalisation)', async () => {
    await create({ slug: 'taken-slug' });
    const res = await call(adminNews, '/api/admin/news', {
      method: 'POST',
      json: payload({ slug: 'Taken Slug' }),
      cookie: editor,
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe('An article with this slug already exists');
  });

  it('413 for an oversize body, 415 for a non-JSON body, 400 for broken JSON', async () => {
    const big = await call(adminNews, '/api/admin/news', {
      method: 'POST',
      json: payload({ content: 'x'.repeat(300 * 1024) }),
      cookie: editor,
    });
    expect(big.status).toBe(413);
    const form = await call(adminNews, '/api/admin/news', {
      method: 'POST',
      body: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      cookie: editor,
    });
    expect(form.status).toBe(415);
    const broken = await call(adminNews, '/api/admin/news', {
      method: 'POST',
      body: '{"title":',
      headers: { 'content-type': 'application/json' },
      cookie: editor,
    });
    expect(broken.status).toBe(400);
  });

  it('405 with Allow for a wrong method', async () => {
    const put = await call(adminNews, '/api/admin/news', { method: 'PUT', json: payload(), cookie: editor });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    const post = await call(adminNews, '/api/admin/news/1', {
      method: 'POST',
      json: payload(),
      cookie: editor,
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('PUT, DELETE');
  });

  it('403 for a cross-site write even when signed in (CSRF)', async () => {
    const res = await call(adminNews, '/api/admin/news', {
      method: 'POST',
      json: payload({ slug: 'csrf' }),
      cookie: editor,
      crossSite: true,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
  });
});

describe('PUT and DELETE /api/admin/news/:id', () => {
  it('updates, moves the slug claim, and refuses a stale expectedUpdatedAt with 409', async () => {
    const a = await create({ slug: 'old-slug' });
    const res = await call(adminNews, `/api/admin/news/${a.id}`, {
      method: 'PUT',
      json: payload({ slug: 'New Slug', title: 'Renamed', expectedUpdatedAt: a.updatedAt }),
      cookie: editor,
    });
    expect(res.status).toBe(200);
    const b = ((await res.json()) as { article: Article }).article;
    expect(b.slug).toBe('new-slug');
    expect(b.title).toBe('Renamed');
    expect(b.publishedAt).toBe(a.publishedAt);
    expect(b.updatedAt > a.updatedAt).toBe(true);
    expect((await publicArticleBySlug('new-slug'))?.id).toBe(a.id);
    expect(await publicArticleBySlug('old-slug')).toBeNull();
    // The old slug is free again.
    await create({ slug: 'old-slug' });

    const stale = await call(adminNews, `/api/admin/news/${a.id}`, {
      method: 'PUT',
      json: payload({ slug: 'new-slug', expectedUpdatedAt: a.updatedAt }),
      cookie: editor,
    });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: string }).error).toBe(
      'This record was changed by someone else. Reload and try again.',
    );
  });

  it('409 when renaming onto another article’s slug; both keep theirs', async () => {
    const a = await create({ slug: 'first-one' });
    const b = await create({ slug: 'second-one' });
    const res = await call(adminNews, `/api/admin/news/${b.id}`, {
      method: 'PUT',
      json: payload({ slug: 'first-one' }),
      cookie: editor,
    });
    expect(res.status).toBe(409);
    expect((await publicArticleBySlug('first-one'))?.id).toBe(a.id);
    expect((await publicArticleBySlug('second-one'))?.id).toBe(b.id);
  });

  it('unpublishing removes it from /api/news; republishing keeps the original date', async () => {
    const a = await create({ slug: 'toggle' });
    await call(adminNews, `/api/admin/news/${a.id}`, {
      method: 'PUT',
      json: payload({ slug: 'toggle', isPublished: false }),
      cookie: editor,
    });
    expect((await publicList()).map((x) => x.id)).not.toContain(a.id);
    const res = await call(adminNews, `/api/admin/news/${a.id}`, {
      method: 'PUT',
      json: payload({ slug: 'toggle', isPublished: true }),
      cookie: editor,
    });
    expect(((await res.json()) as { article: Article }).article.publishedAt).toBe(a.publishedAt);
    expect((await publicList()).map((x) => x.id)).toContain(a.id);
  });

  it('404 for an unknown or malformed id', async () => {
    expect(
      (await call(adminNews, '/api/admin/news/999999', { method: 'PUT', json: payload(), cookie: editor }))
        .status,
    ).toBe(404);
    expect(
      (await call(adminNews, '/api/admin/news/abc', { method: 'PUT', json: payload(), cookie: editor }))
        .status,
    ).toBe(404);
    expect(
      (await call(adminNews, '/api/admin/news/999999', { method: 'DELETE', cookie: editor })).status,
    ).toBe(404);
  });

  it('deletes: gone from the public list and the slug is free', async () => {
    const a = await create({ slug: 'to-delete' });
    const res = await call(adminNews, `/api/admin/news/${a.id}`, { method: 'DELETE', cookie: editor });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect((await publicList()).map((x) => x.id)).not.toContain(a.id);
    await create({ slug: 'to-delete' });
  });
});

describe('GET /api/news and GET /api/admin/news', () => {
  it('lists public articles newest first, with CDN cache headers and a cache tag', async () => {
    const res = await call(news, '/api/news');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(res.headers.get('netlify-cdn-cache-control')).toBe(
      'public, s-maxage=30, stale-while-revalidate=60',
    );
    expect(res.headers.get('netlify-cache-tag')).toBe('news');
    const { articles } = (await res.json()) as { articles: Article[] };
    expect(articles.length).toBeGreaterThan(0);
    const dates = articles.map((a) => a.publishedAt!);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(articles.every((a) => a.isPublished && typeof a.content === 'string')).toBe(true);
    expect((await call(news, '/api/news', { method: 'POST', json: {} })).status).toBe(405);
  });

  it('admin list: drafts included, paginated, no-store', async () => {
    // What it reads, whatever ran before: a draft, and enough articles for a second page of 3.
    for (let i = 0; i < 6; i++) await create({ slug: `admin-list-${i}`, isPublished: i > 0 });
    const all = await call(adminNews, '/api/admin/news', { cookie: viewer });
    expect(all.status).toBe(200);
    expect(all.headers.get('cache-control')).toBe('no-store');
    const body = (await all.json()) as { articles: Article[]; total: number; page: number; pageSize: number };
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(body.articles.some((a) => !a.isPublished)).toBe(true);
    const p2 = (await (
      await call(adminNews, '/api/admin/news?page=2&pageSize=3', { cookie: viewer })
    ).json()) as typeof body;
    expect(p2.articles).toEqual(body.articles.slice(3, 6));
    expect(p2.total).toBe(body.total);
    for (const bad of ['pageSize=201', 'pageSize=0', 'page=0', 'page=x']) {
      expect((await call(adminNews, `/api/admin/news?${bad}`, { cookie: viewer })).status).toBe(400);
    }
  });
});
