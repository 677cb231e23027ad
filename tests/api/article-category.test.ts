import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as news from '../../netlify/functions/news.mts';
import { IDENTITY } from '../../src/content/identity.ts';
import { ARTICLE_MESSAGES, type Article, type PublicArticle } from '../../src/lib/schemas/article.ts';
import { articleCategory } from '../../src/lib/schemas/category.ts';
import { publicArticles } from '../../src/lib/server/content/articles.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';

/*
 * The article's category (docs/decisions/161-content-and-editor.md): staff may choose the badge; without a choice the
 * spec's rule from the author text gives it (a town hall recap by the candidate is "Policy" by the rule, "Events"
 * when chosen).
 */

let stop: () => Promise<void>;
let editor: string;
beforeAll(async () => {
  ({ stop } = await startBlobs());
  editor = (await makeUsers()).editor!;
});
afterAll(() => stop());

let n = 0;
const payload = (over: Record<string, unknown> = {}) => ({
  title: 'Town hall recap, District B',
  slug: `town-hall-recap-${++n}`,
  content: '<p>Thank you, District B.</p>',
  excerpt: 'What we heard.',
  imageUrl: '',
  author: IDENTITY.candidateName,
  isPublished: true,
  ...over,
});

async function save(path: string, method: 'POST' | 'PUT', json: unknown) {
  const res = await call(adminNews, path, { method, json, cookie: editor });
  return { status: res.status, body: (await res.json()) as { article: Article; error?: string } };
}

async function publicCategory(slug: string, lang: 'en' | 'es') {
  const res = await call(news, `/api/news?lang=${lang}`);
  const a = ((await res.json()) as { articles: PublicArticle[] }).articles.find(
    (x) => x.slug === slug || x.slugs.en === slug,
  );
  return a && articleCategory(a, IDENTITY.candidateName);
}

describe('the article category', () => {
  it('without a choice the badge follows the author (spec); a chosen one is kept, published in both languages', async () => {
    const ruled = await save('/api/admin/news', 'POST', payload());
    expect(ruled.status).toBe(201);
    expect(ruled.body.article.category).toBeNull();
    expect(await publicCategory(ruled.body.article.slug, 'en')).toBe('Policy');

    const chosen = await save('/api/admin/news', 'POST', payload({ category: 'Events' }));
    expect(chosen.status).toBe(201);
    expect(chosen.body.article.category).toBe('Events');
    expect(await publicCategory(chosen.body.article.slug, 'en')).toBe('Events');
    expect(await publicCategory(chosen.body.article.slug, 'es')).toBe('Events');
    // /blog and its archive are built from the summary index, not the feed: it keeps the choice too.
    for (const lang of ['en', 'es'] as const) {
      const listed = (await publicArticles(lang)).find((x) => x.id === chosen.body.article.id);
      expect(listed && articleCategory(listed, IDENTITY.candidateName)).toBe('Events');
    }
  });

  it('an update that leaves the category out keeps it; null goes back to the rule', async () => {
    const { body } = await save('/api/admin/news', 'POST', payload({ category: 'Campaign News' }));
    const a = body.article;
    const withoutCategory = payload({ slug: a.slug, title: 'Renamed' });
    const kept = await save(`/api/admin/news/${a.id}`, 'PUT', withoutCategory);
    expect(kept.status).toBe(200);
    expect(kept.body.article).toMatchObject({ title: 'Renamed', category: 'Campaign News' });
    const reset = await save(`/api/admin/news/${a.id}`, 'PUT', { ...withoutCategory, category: null });
    expect(reset.body.article.category).toBeNull();
    expect(await publicCategory(a.slug, 'en')).toBe('Policy');
  });

  it('refuses anything but the four categories (400, a clear message), storing nothing', async () => {
    for (const bad of ['policy', 'Opinion', '<b>News</b>', 3, ['News']]) {
      const res = await save('/api/admin/news', 'POST', payload({ slug: 'refused-category', category: bad }));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(ARTICLE_MESSAGES.category);
    }
    const list = await call(news, '/api/news');
    const slugs = ((await list.json()) as { articles: PublicArticle[] }).articles.map((a) => a.slug);
    expect(slugs).not.toContain('refused-category');
  });

  it('a stored value outside the list (a hand-edited record) counts as no choice', () => {
    expect(articleCategory({ author: 'Press Office', category: 'Opinion' }, IDENTITY.candidateName)).toBe(
      'Campaign News',
    );
    expect(articleCategory({ author: 'Press Office' }, IDENTITY.candidateName)).toBe('Campaign News');
  });
});
