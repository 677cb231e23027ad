/**
 * Spanish versions of articles and events, edited through
 * the admin endpoints, marked stale when the English changes after them, and
 * shown in Spanish by the public lists (?lang=es) and the article lookup.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as adminEvents from '../../netlify/functions/admin-events.mts';
import * as revisionsFn from '../../netlify/functions/admin-revisions.mts';
import * as trashFn from '../../netlify/functions/admin-trash.mts';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import * as newsFn from '../../netlify/functions/news.mts';
import * as eventsFn from '../../netlify/functions/events.mts';
import {
  ARTICLE_MESSAGES,
  ArticleSchema,
  articleSourceHash,
  articleTranslationStatus,
  type Article,
  type PublicArticle,
} from '../../src/lib/schemas/article.ts';
import {
  EventSchema,
  eventTranslationStatus,
  type CampaignEvent,
  type PublicEvent,
} from '../../src/lib/schemas/event.ts';
import type { AuditPage } from '../../src/lib/schemas/audit.ts';
import type { RevisionSummary } from '../../src/lib/schemas/history.ts';
import { articles, publicArticleBySlug, publicArticles } from '../../src/lib/server/content/articles.ts';
import { events, publicEvents } from '../../src/lib/server/content/events.ts';
import { sanitizeArticleHtml } from '../../src/lib/server/content/sanitize.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers, type Who } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
let users: Record<Who, string | undefined>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
  users = await makeUsers();
});
afterAll(() => stop());

const WHO: Who[] = ['anonymous', 'viewer', 'editor', 'admin', 'inactive'];
let n = 0;
const unique = () => `${Date.now().toString(36)}-${++n}`;
const body = async <T>(res: Response) => (await res.json()) as T;

const english = (slug = `en-${unique()}`) => ({
  title: 'Fixing our streets',
  slug,
  excerpt: 'How we get there.',
  content: '<p>Potholes first.</p>',
  author: 'Press Office',
  isPublished: true,
});
const spanish = (slug = `es-${unique()}`) => ({
  title: 'Arreglar nuestras calles',
  slug,
  excerpt: 'Cómo lo lograremos.',
  content: '<p>Primero los baches.</p>',
});

async function createArticle(json: unknown, who: Who = 'editor'): Promise<Article> {
  const res = await call(adminNews, '/api/admin/news', { json, cookie: users[who] });
  expect(res.status, await res.clone().text()).toBe(201);
  return ArticleSchema.parse((await body<{ article: unknown }>(res)).article);
}
const put = (id: number, json: unknown, who: Who = 'editor') =>
  call(adminNews, `/api/admin/news/${id}`, { method: 'PUT', json, cookie: users[who] });
async function save(id: number, json: unknown, who: Who = 'editor'): Promise<Article> {
  const res = await put(id, json, who);
  expect(res.status, await res.clone().text()).toBe(200);
  return ArticleSchema.parse((await body<{ article: unknown }>(res)).article);
}
/** The English fields of a stored article, as the form sends them back. */
const englishOf = (a: Article) => ({
  title: a.title,
  slug: a.slug,
  excerpt: a.excerpt,
  content: a.content,
  author: a.author,
  isPublished: a.isPublished,
  expectedUpdatedAt: a.updatedAt,
});
const spanishOf = (a: Article) => {
  const t = a.translations.es!;
  return { title: t.title, slug: t.slug, excerpt: t.excerpt, content: t.content };
};

describe('article translations: create, update, stale, confirm, remove', () => {
  it('a Spanish version saved with the article is current, and records the English it was made from', async () => {
    const a = await createArticle({ ...english(), translations: { es: spanish() } });
    expect(a.translations.es).toMatchObject({
      title: 'Arreglar nuestras calles',
      sourceHash: articleSourceHash(a),
      sourceUpdatedAt: a.updatedAt,
    });
    expect(articleTranslationStatus(a, 'es')).toBe('current');
    // Old articles and new ones without a translation: missing.
    expect(articleTranslationStatus(await createArticle(english()), 'es')).toBe('missing');
  });

  it('editing the English text makes it stale; a non-text field does not; updating or confirming clears it', async () => {
    const a = await createArticle({ ...english(), translations: { es: spanish() } });
    // The author and the publish state are not translated: still current.
    const b = await save(a.id, { ...englishOf(a), author: 'Campaign Team' });
    expect(articleTranslationStatus(b, 'es')).toBe('current');

    // The English content changes: stale, and the stored translation is untouched.
    const c = await save(b.id, { ...englishOf(b), content: '<p>Potholes and drains first.</p>' });
    expect(articleTranslationStatus(c, 'es')).toBe('stale');
    expect(c.translations.es).toEqual(b.translations.es);

    // Sending the Spanish back unchanged (the English form resends it) does not clear it.
    const d = await save(c.id, { ...englishOf(c), translations: { es: spanishOf(c) } });
    expect(articleTranslationStatus(d, 'es')).toBe('stale');

    // "Mark as up to date": same text, confirmed against the current English.
    const e = await save(d.id, {
      ...englishOf(d),
      translations: { es: { ...spanishOf(d), upToDate: true } },
    });
    expect(articleTranslationStatus(e, 'es')).toBe('current');
    expect(e.translations.es).toMatchObject({ ...spanishOf(d), sourceUpdatedAt: e.updatedAt });

    // Stale again, then an updated Spanish text clears it.
    const f = await save(e.id, { ...englishOf(e), title: 'Fixing our streets, block by block' });
    expect(articleTranslationStatus(f, 'es')).toBe('stale');
    const g = await save(f.id, {
      ...englishOf(f),
      translations: { es: { ...spanishOf(f), title: 'Arreglar nuestras calles, cuadra por cuadra' } },
    });
    expect(articleTranslationStatus(g, 'es')).toBe('current');
  });

  it('a translation made against an English that changed meanwhile is refused (409), nothing stored', async () => {
    const a = await createArticle(english());
    await save(a.id, { ...englishOf(a), title: 'Someone else edited this' });
    const res = await put(a.id, { ...englishOf(a), translations: { es: spanish() } });
    expect(res.status).toBe(409);
    expect((await articles.get(a.id))?.translations).toEqual({});
  });

  it('null removes the Spanish version and frees its slug', async () => {
    const esSlug = `libre-${unique()}`;
    const a = await createArticle({ ...english(), translations: { es: spanish(esSlug) } });
    const b = await save(a.id, { ...englishOf(a), translations: { es: null } });
    expect(b.translations).toEqual({});
    expect(await publicArticleBySlug(esSlug, 'es')).toBeNull();
    // Another article can take the slug now.
    const other = await createArticle(english(esSlug));
    expect(other.slug).toBe(esSlug);
  });

  it('slugs are unique across languages: a Spanish slug cannot take another article’s slug, and vice versa', async () => {
    const first = await createArticle({ ...english(), translations: { es: spanish() } });
    const second = await createArticle(english());
    // Spanish slug = another article's English slug.
    const r1 = await put(second.id, { ...englishOf(second), translations: { es: spanish(first.slug) } });
    expect(r1.status).toBe(409);
    expect(await body<{ fields: Record<string, string> }>(r1)).toMatchObject({
      fields: { slug: 'An article with this slug already exists' },
    });
    // English slug = another article's Spanish slug.
    const r2 = await put(second.id, { ...englishOf(second), slug: first.translations.es!.slug });
    expect(r2.status).toBe(409);
    // A new article whose Spanish slug is taken: refused, and its English slug is not left claimed.
    const freeSlug = `free-${unique()}`;
    const r3 = await call(adminNews, '/api/admin/news', {
      json: { ...english(freeSlug), translations: { es: spanish(first.slug) } },
      cookie: users.editor,
    });
    expect(r3.status).toBe(409);
    expect((await createArticle(english(freeSlug))).slug).toBe(freeSlug);
    expect((await articles.get(second.id))?.translations).toEqual({});
    // Its own English slug is fine as its Spanish slug.
    const same = await save(second.id, {
      ...englishOf(second),
      translations: { es: spanish(second.slug) },
    });
    expect(same.translations.es?.slug).toBe(second.slug);
  });

  it('Spanish content goes through the same sanitiser as the English', async () => {
    const dirty =
      '<p onclick="x()">Hola <a href="javascript:alert(1)">enlace</a></p><script>alert(1)</script><img src=x onerror=alert(1)>';
    const a = await createArticle({
      ...english(),
      content: dirty,
      translations: { es: { ...spanish(), content: dirty } },
    });
    expect(a.translations.es?.content).toBe(a.content);
    expect(a.translations.es?.content).toBe(await sanitizeArticleHtml(dirty));
    expect(a.translations.es?.content).not.toMatch(/script|onclick|onerror|javascript:/i);
  });

  it('revisions keep each Spanish save; the audit entry says what happened to the translation', async () => {
    const a = await createArticle(english());
    const b = await save(a.id, { ...englishOf(a), translations: { es: spanish() } });
    const c = await save(b.id, { ...englishOf(b), content: '<p>New English.</p>' });
    await save(c.id, { ...englishOf(c), translations: { es: { ...spanishOf(c), upToDate: true } } });
    const { revisions } = await body<{ revisions: RevisionSummary[] }>(
      await call(revisionsFn, `/api/admin/news/${a.id}/revisions`, { cookie: users.viewer }),
    );
    expect(revisions.map((r) => r.changed)).toEqual([['translations'], ['content'], ['translations'], []]);
    const activity = await body<AuditPage>(
      await call(activityFn, '/api/admin/activity?pageSize=200', { cookie: users.admin }),
    );
    const mine = activity.entries.filter(
      (e) => String(e.target?.id) === String(a.id) && e.target?.type === 'article',
    );
    expect(mine.map((e) => e.details.translation_es).filter(Boolean)).toEqual(['marked up to date', 'added']);

    // Restoring the version before the translation keeps the translation (now stale against that English).
    const restored = await call(revisionsFn, `/api/admin/news/${a.id}/revisions/1/restore`, {
      method: 'POST',
      cookie: users.editor,
    });
    expect(restored.status).toBe(200);
    const after = (await articles.get(a.id))!;
    expect(after.content).toBe(a.content);
    expect(after.translations.es?.title).toBe('Arreglar nuestras calles');
    expect(articleTranslationStatus(after, 'es')).toBe('stale');
  });

  it('Trash: deleting frees both slugs; restoring claims both again', async () => {
    const a = await createArticle({ ...english(), translations: { es: spanish() } });
    const esSlug = a.translations.es!.slug;
    expect(
      (await call(adminNews, `/api/admin/news/${a.id}`, { method: 'DELETE', cookie: users.editor })).status,
    ).toBe(200);
    expect(await publicArticleBySlug(esSlug, 'es')).toBeNull();
    const res = await call(trashFn, `/api/admin/trash/article/${a.id}/restore`, {
      method: 'POST',
      cookie: users.admin,
    });
    expect(res.status).toBe(200);
    expect((await publicArticleBySlug(esSlug, 'es'))?.title).toBe('Arreglar nuestras calles');
    const clash = await call(adminNews, '/api/admin/news', { json: english(esSlug), cookie: users.editor });
    expect(clash.status).toBe(409);
  });
});

describe('article translations: bad input -> 400 with { error }, nothing stored', () => {
  it.each([
    ['no Spanish title', { ...spanish(), title: '' }, ARTICLE_MESSAGES.missingTranslation],
    ['no Spanish slug', { ...spanish(), slug: '  ' }, ARTICLE_MESSAGES.missingTranslation],
    ['no Spanish content', { ...spanish(), content: undefined }, ARTICLE_MESSAGES.missingTranslation],
    [
      'content that sanitises to nothing',
      { ...spanish(), content: '<script>x</script>' },
      ARTICLE_MESSAGES.missingTranslation,
    ],
    ['an unknown field', { ...spanish(), notes: 'x' }, null],
    ['a control character', { ...spanish(), title: 'A\u0000B' }, null],
    ['a title too long', { ...spanish(), title: 'x'.repeat(201) }, null],
    ['upToDate not a boolean', { ...spanish(), upToDate: 'yes' }, null],
  ])('%s', async (_name, es, message) => {
    const a = await createArticle(english());
    const res = await put(a.id, { ...englishOf(a), translations: { es } });
    expect(res.status).toBe(400);
    const err = await body<{ error: string }>(res);
    expect(err.error).toEqual(message ?? expect.any(String));
    expect(await articles.get(a.id)).toEqual(a);
  });

  it.each([
    ['a language the site does not have', { fr: spanish() }],
    ['English as a translation', { en: spanish() }],
    ['not an object', 'es'],
    ['a list', [spanish()]],
  ])('translations: %s', async (_name, translations) => {
    const a = await createArticle(english());
    const res = await put(a.id, { ...englishOf(a), translations });
    expect(res.status).toBe(400);
    expect((await body<{ error: string }>(res)).error).toEqual(expect.any(String));
    expect(await articles.get(a.id)).toEqual(a);
  });
});

describe('permission matrix: translation saves x {anonymous, viewer, editor, admin, inactive}', () => {
  it('create with a Spanish version, update it, confirm it: editor and admin only', async () => {
    const want = { anonymous: 401, viewer: 403, editor: 201, admin: 201, inactive: 401 };
    const got: Record<string, number> = {};
    for (const who of WHO) {
      const res = await call(adminNews, '/api/admin/news', {
        json: { ...english(), translations: { es: spanish() } },
        cookie: users[who],
      });
      got[who] = res.status;
    }
    expect(got).toEqual(want);

    const base = await createArticle({ ...english(), translations: { es: spanish() } });
    for (const [label, translation] of [
      ['update', (a: Article) => ({ ...spanishOf(a), title: `Título ${unique()}` })],
      ['confirm', (a: Article) => ({ ...spanishOf(a), upToDate: true })],
      ['remove', () => null],
    ] as const) {
      const statuses: Record<string, number> = {};
      for (const who of WHO) {
        const cur = (await articles.get(base.id))!;
        const res = await put(base.id, { ...englishOf(cur), translations: { es: translation(cur) } }, who);
        statuses[who] = res.status;
        // A refusal says why.
        const error = res.status >= 400 ? (await body<{ error?: unknown }>(res)).error : 'not refused';
        expect(typeof error === 'string' && error !== '', `${label} ${who}: ${res.status}`).toBe(true);
        // Put the Spanish back for the next role.
        if (label === 'remove' && res.status === 200) {
          const now = (await articles.get(base.id))!;
          await save(base.id, { ...englishOf(now), translations: { es: spanish() } });
        }
      }
      expect(statuses, label).toEqual({
        anonymous: 401,
        viewer: 403,
        editor: 200,
        admin: 200,
        inactive: 401,
      });
    }
  });

  it('events: a Spanish title and description save for editor and admin only', async () => {
    const got: Record<string, number> = {};
    for (const who of WHO) {
      const res = await call(adminEvents, '/api/admin/events', {
        json: { ...eventInput(), translations: { es: { title: 'Mitin', description: 'Venga.' } } },
        cookie: users[who],
      });
      got[who] = res.status;
    }
    expect(got).toEqual({ anonymous: 401, viewer: 403, editor: 201, admin: 201, inactive: 401 });
  });
});

describe('public: Spanish where it exists, else English, and only public fields', () => {
  it('GET /api/news?lang=es gives each article in Spanish where it has it, marked with its language and both slugs', async () => {
    const translated = await createArticle({ ...english(), translations: { es: spanish() } });
    const plain = await createArticle(english());
    const draft = await createArticle({ ...english(), isPublished: false, translations: { es: spanish() } });

    const es = await body<{ articles: PublicArticle[] }>(await call(newsFn, '/api/news?lang=es'));
    const t = es.articles.find((a) => a.id === translated.id)!;
    expect(t).toMatchObject({
      lang: 'es',
      title: 'Arreglar nuestras calles',
      slug: translated.translations.es!.slug,
      excerpt: 'Cómo lo lograremos.',
      content: '<p>Primero los baches.</p>',
      slugs: { en: translated.slug, es: translated.translations.es!.slug },
      author: 'Press Office',
    });
    expect(es.articles.find((a) => a.id === plain.id)).toMatchObject({
      lang: 'en',
      title: 'Fixing our streets',
      slugs: { en: plain.slug, es: plain.slug },
    });
    expect(es.articles.some((a) => a.id === draft.id)).toBe(false);

    const en = await body<{ articles: PublicArticle[] }>(await call(newsFn, '/api/news'));
    expect(en.articles.find((a) => a.id === translated.id)).toMatchObject({
      lang: 'en',
      title: 'Fixing our streets',
      slug: translated.slug,
    });
    const explicit = await body<{ articles: PublicArticle[] }>(await call(newsFn, '/api/news?lang=en'));
    expect(explicit).toEqual(en);

    // No stored-translation field reaches the public answer.
    const text = JSON.stringify(es);
    for (const internal of ['translations', 'sourceHash', 'sourceUpdatedAt', 'createdAt'])
      expect(text).not.toContain(`"${internal}"`);
    expect(text).not.toContain(translated.translations.es!.sourceHash);
  });

  it('the CDN keys the lists by lang; a language the site does not have is a 400', async () => {
    const ok = await call(newsFn, '/api/news?lang=es');
    expect(ok.headers.get('netlify-vary')).toBe('query=lang');
    for (const [mod, path] of [
      [newsFn, '/api/news'],
      [eventsFn, '/api/events'],
    ] as const) {
      expect((await call(mod, `${path}?lang=es&lang=en`)).status).toBe(200); // the first one counts
      for (const q of ['fr', 'ES', '']) {
        const res = await call(mod, `${path}?lang=${q}`);
        expect(res.status).toBe(400);
        expect((await body<{ error: string }>(res)).error).toMatch(/language/i);
      }
    }
  });

  it('records and the stored public views from before translations (none stored) read as English-only', async () => {
    await createArticle(english());
    // Both feed views exist now (whatever other tests of this file read before).
    await call(newsFn, '/api/news');
    await call(eventsFn, '/api/events');
    for (const [store, name] of [
      ['articles', 'view/public'],
      ['events', 'view/public'],
    ] as const) {
      const doc = await kv(store).get<{ rev: number; data: Record<string, unknown>[] }>(name);
      expect(doc, store).not.toBeNull();
      const legacy = doc!.value.data.map(({ translations: _t, ...rest }) => rest);
      await kv(store).put(name, { ...doc!.value, data: legacy });
    }
    const res = await call(newsFn, '/api/news?lang=es');
    expect(res.status).toBe(200);
    const { articles: list } = await body<{ articles: PublicArticle[] }>(res);
    expect(list.length).toBeGreaterThan(0);
    expect((await call(eventsFn, '/api/events?lang=es')).status).toBe(200);
    const { translations: _t, ...old } = await createArticle(english());
    expect(ArticleSchema.parse(old).translations).toEqual({});
  });

  it('publicArticleBySlug resolves either slug and answers in the language asked for', async () => {
    const a = await createArticle({ ...english(), translations: { es: spanish() } });
    const esSlug = a.translations.es!.slug;
    expect(await publicArticleBySlug(esSlug, 'es')).toMatchObject({ lang: 'es', slug: esSlug });
    // The English slug on the Spanish site: the Spanish version, whose slug tells the page where to redirect.
    expect(await publicArticleBySlug(a.slug, 'es')).toMatchObject({ lang: 'es', slug: esSlug });
    // The Spanish slug on the English site: the English version.
    expect(await publicArticleBySlug(esSlug, 'en')).toMatchObject({ lang: 'en', slug: a.slug });
    expect(await publicArticleBySlug(esSlug)).toMatchObject({ lang: 'en', title: 'Fixing our streets' });
    // Without a Spanish version, the Spanish site gets the English one, marked English.
    const plain = await createArticle(english());
    expect(await publicArticleBySlug(plain.slug, 'es')).toMatchObject({ lang: 'en', slug: plain.slug });
    expect(await publicArticleBySlug('no-such-slug', 'es')).toBeNull();
    expect((await publicArticles('es')).find((x) => x.id === a.id)?.lang).toBe('es');
  });
});

const eventInput = (over: Record<string, unknown> = {}) => ({
  title: 'Town Hall',
  description: 'Open to everyone.',
  location: 'Gentilly',
  eventDate: '2099-10-01',
  startTime: '18:00',
  eventType: 'town_hall',
  isPublic: true,
  notes: 'INTERNAL NOTE',
  contactEmail: 'staffer@staff.example',
  ...over,
});

const putEvent = (id: number, json: unknown) =>
  call(adminEvents, `/api/admin/events/${id}`, { method: 'PUT', json, cookie: users.admin });

describe('event translations', () => {
  async function createEventAs(json: unknown): Promise<CampaignEvent> {
    const res = await call(adminEvents, '/api/admin/events', { json, cookie: users.editor });
    expect(res.status, await res.clone().text()).toBe(201);
    return EventSchema.parse((await body<{ event: unknown }>(res)).event);
  }
  const es = { title: 'Asamblea comunitaria', description: 'Abierta a todos.' };

  it('stores, goes stale on an English edit, clears on confirm; /api/events?lang=es shows it', async () => {
    const e = await createEventAs(eventInput({ translations: { es } }));
    expect(eventTranslationStatus(e, 'es')).toBe('current');
    const res = await putEvent(
      e.id,
      eventInput({ description: 'Open to all.', expectedUpdatedAt: e.updatedAt }),
    );
    expect(res.status).toBe(200);
    const stale = EventSchema.parse((await body<{ event: unknown }>(res)).event);
    expect(eventTranslationStatus(stale, 'es')).toBe('stale');
    // The location is not translated: changing it leaves the status alone.
    const moved = EventSchema.parse(
      (
        await body<{ event: unknown }>(
          await putEvent(e.id, eventInput({ description: 'Open to all.', location: 'Mid-City' })),
        )
      ).event,
    );
    expect(eventTranslationStatus(moved, 'es')).toBe('stale');
    const confirmed = EventSchema.parse(
      (
        await body<{ event: unknown }>(
          await putEvent(
            e.id,
            eventInput({
              description: 'Open to all.',
              location: 'Mid-City',
              translations: { es: { ...es, upToDate: true } },
            }),
          ),
        )
      ).event,
    );
    expect(eventTranslationStatus(confirmed, 'es')).toBe('current');

    const list = await body<{ events: PublicEvent[] }>(await call(eventsFn, '/api/events?lang=es'));
    expect(list.events.find((x) => x.id === e.id)).toMatchObject({
      lang: 'es',
      title: 'Asamblea comunitaria',
      description: 'Abierta a todos.',
      location: 'Mid-City',
    });
    const text = JSON.stringify(list);
    for (const internal of ['translations', 'sourceHash', 'notes', 'contactEmail'])
      expect(text).not.toContain(`"${internal}"`);
    expect(text).not.toContain('INTERNAL NOTE');
    expect((await publicEvents('en')).find((x) => x.id === e.id)).toMatchObject({
      lang: 'en',
      title: 'Town Hall',
    });
  });

  it('bad input: no Spanish title, or no Spanish description when the English has one -> 400, nothing stored', async () => {
    const e = await createEventAs(eventInput());
    for (const translation of [
      { title: '', description: 'x' },
      { title: 'Asamblea', description: '' },
      { title: 'Asamblea', description: 'x', extra: 1 },
    ]) {
      const res = await putEvent(e.id, eventInput({ translations: { es: translation } }));
      expect(res.status).toBe(400);
      expect((await body<{ error: string }>(res)).error).toEqual(expect.any(String));
    }
    expect(await events.get(e.id)).toEqual(e);
    // An event without an English description may have a Spanish title alone.
    const bare = await createEventAs(
      eventInput({ description: '', translations: { es: { title: 'Mitin' } } }),
    );
    expect(bare.translations.es).toMatchObject({ title: 'Mitin', description: '' });
  });

  it('revision restore of an event keeps working with translations stored', async () => {
    const e = await createEventAs(eventInput({ translations: { es } }));
    await putEvent(e.id, eventInput({ title: 'Renamed', translations: { es } }));
    const res = await call(revisionsFn, `/api/admin/events/${e.id}/revisions/1/restore`, {
      method: 'POST',
      cookie: users.editor,
    });
    expect(res.status).toBe(200);
    const back = (await events.get(e.id))!;
    expect(back.title).toBe('Town Hall');
    expect(back.translations.es?.title).toBe('Asamblea comunitaria');
  });
});

describe('fuzz: arbitrary translations on the article and event writes', () => {
  it('never 5xx; everything stored re-parses; slugs stay unique across languages', async () => {
    const a = await createArticle(english());
    const e = EventSchema.parse(
      (
        await body<{ event: unknown }>(
          await call(adminEvents, '/api/admin/events', { json: eventInput(), cookie: users.editor }),
        )
      ).event,
    );
    const junk = fc.oneof(fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 2 }), fc.constant(null));
    const translation = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          {
            title: fc.oneof(fc.string({ maxLength: 40 }), junk),
            slug: fc.oneof(fc.constantFrom('uno', 'dos', a.slug, 'UNO', ''), fc.string({ maxLength: 20 })),
            excerpt: fc.oneof(fc.string({ maxLength: 40 }), junk),
            content: fc.oneof(
              fc.constantFrom('<p>Hola</p>', '<script>x</script>', '<p onclick=x>y</p>'),
              junk,
            ),
            description: fc.oneof(fc.string({ maxLength: 40 }), junk),
            upToDate: fc.oneof(fc.boolean(), junk),
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: junk },
    );
    const translations = fc.oneof(
      { weight: 4, arbitrary: fc.dictionary(fc.constantFrom('es', 'en', 'fr'), translation, { maxKeys: 2 }) },
      { weight: 1, arbitrary: junk },
    );
    let ok = 0;
    await fc.assert(
      fc.asyncProperty(translations, fc.boolean(), async (t, onArticle) => {
        const res = onArticle
          ? await put(a.id, {
              ...englishOf((await articles.get(a.id))!),
              expectedUpdatedAt: undefined,
              translations: t,
            })
          : await putEvent(e.id, eventInput({ translations: t }));
        expect(res.status).toBeLessThan(500);
        // Accepted, or refused with a reason.
        const error = res.status < 300 ? 'accepted' : (await body<{ error: unknown }>(res)).error;
        expect(error).toEqual(expect.any(String));
        ok += res.status < 300 ? 1 : 0;
      }),
      { numRuns: 80 },
    );
    expect(ok).toBeGreaterThan(0);
    const stored = ArticleSchema.parse(await articles.get(a.id));
    const slugs = (await articles.list()).flatMap((x) => [
      x.slug,
      ...Object.values(x.translations).map((tr) => tr.slug),
    ]);
    for (const s of new Set(slugs)) {
      const owners = (await articles.list()).filter(
        (x) => x.slug === s || Object.values(x.translations).some((tr) => tr.slug === s),
      );
      expect(owners.length, s).toBe(1);
    }
    expect(stored.id).toBe(a.id);
    EventSchema.parse(await events.get(e.id));
  }, 120_000);
});
