import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe.ts';
import { baseURL, launchBrowser, type BrowserSession } from './helpers/browser.ts';
import { afterRefresh, apiAs, devAdminCookie, hydrated, json, toast } from './helpers/public.ts';

let browser: BrowserSession;
let cookie = '';
const stamp = Date.now().toString(36);

const admin = (method: string, path: string, body?: unknown) => apiAs(cookie, method, path, body);

function article(title: string, isPublished: boolean) {
  return {
    title,
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    content: `<p>${title} body</p>`,
    excerpt: `${title} excerpt`,
    author: 'Press Office',
    isPublished,
  };
}

/** A published article as GET /api/news answers it (for a mocked API). */
function stored(title: string, id = 1) {
  return {
    ...article(title, true),
    id,
    imageUrl: '',
    publishedAt: '2025-09-17T15:00:00Z',
    createdAt: '2025-09-17T15:00:00Z',
    updatedAt: '2025-09-17T15:00:00Z',
    author: 'Jordan Avery',
  };
}

beforeAll(async () => {
  browser = await launchBrowser();
  // The dev admin comes from `npm run seed`, which the global setup runs before the dev server starts.
  cookie = await devAdminCookie();
  expect(cookie).not.toBe('');
});
afterAll(async () => {
  await browser?.close();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
function event(id: number, eventDate: string, isPublic = true, extra: Record<string, unknown> = {}) {
  return {
    id,
    title: `Event ${id}`,
    description: '',
    location: 'City Hall',
    eventDate,
    startTime: '18:00',
    endTime: '19:30',
    eventType: 'town_hall',
    isPublic,
    maxAttendees: 100,
    registrationRequired: true,
    registrationUrl: '',
    contactEmail: 'e@example.org',
    notes: '',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    ...extra,
  };
}

describe('blog', () => {
  it('shows at most 3 upcoming public events with their details', async () => {
    const page = await browser.newPage();
    // The page arrives with the stored events; the mocked list comes with the 30 s refresh.
    await page.clock.install();
    await page.route('**/api/events', (r) =>
      json(r, 200, {
        events: [
          event(1, day(-2)),
          event(2, day(3), false),
          event(3, day(1), true, { registrationUrl: 'https://example.org/rsvp' }),
          event(4, day(2)),
          event(5, day(5)),
          event(6, day(9)),
        ],
      }),
    );
    await page.goto('/blog');
    await hydrated(page, 'UpcomingEvents');
    const cards = page.locator('.event-card');
    await afterRefresh(page, () =>
      cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-event-id'))),
    ).toEqual(['3', '4', '5']);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-event-id')))).toEqual([
      '3',
      '4',
      '5',
    ]);
    const first = cards.first();
    expect(await first.textContent()).toContain('Town Hall');
    expect(await first.textContent()).toContain('Registration Required');
    expect(await first.textContent()).toContain('6:00 PM - 7:30 PM');
    expect(await first.textContent()).toContain('100');
    expect(await first.getByRole('link', { name: /Register Now/ }).getAttribute('href')).toBe(
      'https://example.org/rsvp',
    );
    expect(
      await cards
        .nth(1)
        .getByRole('link', { name: /Register Now/ })
        .count(),
    ).toBe(0);
    // The event's .ics file, a plain link (its contents: public-nojs.test.ts, tests/api/events.test.ts).
    const calendar = first.getByRole('link', { name: /Add to calendar/ });
    expect(await calendar.getAttribute('href')).toBe('/events/3/calendar.ics');
    expect(await calendar.getAttribute('download')).toBe('');
    expect(await page.getByRole('link', { name: 'View All Events' }).getAttribute('href')).toBe(
      '/contact#events',
    );
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('refreshes the server-rendered list from the API every 30 s (mocked API)', async () => {
    const list = [stored('Mock One')];
    const page = await browser.newPage();
    // A fake clock: the 30 s refresh is checked by moving time, not by waiting for it.
    await page.clock.install();
    await page.route('**/api/news', (r) => json(r, 200, { articles: list }));
    await page.goto('/blog');
    await hydrated(page, 'ArticleList');
    // The server rendered the stored articles; the island does not fetch on mount, only every 30 s.
    const grid = page.locator('#article-list');
    expect(await grid.getByRole('heading', { name: 'Mock One' }).count()).toBe(0);
    await afterRefresh(page, () => grid.getByRole('heading', { name: 'Mock One' }).count()).toBe(1);
    expect(await grid.textContent()).toContain('Policy');
    expect(await grid.textContent()).toContain('September 17, 2025');
    list.unshift({ ...list[0]!, id: 2, title: 'Mock Two', slug: 'mock-two' });
    // Not refetched early (no refetch on focus or reconnect, spec section 7)...
    await page.clock.runFor(25_000);
    expect(await grid.getByRole('heading', { name: 'Mock Two' }).count()).toBe(0);
    // ...and refetched once the 30 s interval has passed.
    await page.clock.runFor(5_500);
    await grid.getByRole('heading', { name: 'Mock Two' }).waitFor();
    await page.close();
  });

  it('untouched, the lists hydrate when the 30 s refresh is due and refresh then (no React at load)', async () => {
    const late = stored('Mock Late');
    const page = await browser.newPage();
    await page.clock.install();
    await page.route('**/api/news', (r) => json(r, 200, { articles: [late] }));
    await page.goto('/blog', { waitUntil: 'load' });
    const island = page.locator('astro-island[component-url*="/ArticleList"]');
    expect(await island.getAttribute('ssr'), 'not hydrated at load').not.toBeNull();
    const grid = page.locator('#article-list');
    await afterRefresh(page, () => grid.getByRole('heading', { name: 'Mock Late' }).count()).toBe(1);
    expect(await island.getAttribute('ssr'), 'hydrated by then').toBeNull();
    await page.close();
  });

  it('lists only published articles and picks up a new one without reload', async () => {
    const published = await admin('POST', '/api/admin/news', article(`Published ${stamp}`, true));
    expect(published.status).toBe(201);
    expect((await admin('POST', '/api/admin/news', article(`Draft ${stamp}`, false))).status).toBe(201);
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto('/blog');
    await hydrated(page, 'ArticleList');
    const grid = page.locator('#article-list');
    await grid.getByRole('heading', { name: `Published ${stamp}` }).waitFor();
    expect(await grid.getByRole('heading', { name: `Draft ${stamp}` }).count()).toBe(0);
    const card = grid.locator(`[data-slug="published-${stamp}"]`);
    expect(await card.textContent()).toContain('Campaign News');
    expect(await card.getByRole('link', { name: /Read More/ }).getAttribute('href')).toBe(
      `/article/published-${stamp}`,
    );
    expect(await card.locator('img').getAttribute('src')).toBe('/images/article-fallback.svg');
    await expectNoAxeViolations(page);

    expect((await admin('POST', '/api/admin/news', article(`Fresh ${stamp}`, true))).status).toBe(201);
    await afterRefresh(page, () => grid.getByRole('heading', { name: `Fresh ${stamp}` }).count()).toBe(1);
    await page.close();
  });

  // Double opt-in (docs/decisions/167-email-and-newsletter.md): the captcha, then pending until
  // the emailed link is confirmed (tests/browser/public-nojs.test.ts follows the link).
  it('newsletter box asks for the captcha, thanks, and keeps the address pending (not yet in the staff inbox)', async () => {
    const email = `reader-${stamp}@example.org`;
    const page = await browser.newPage();
    await page.goto('/blog');
    await hydrated(page, 'NewsletterBox');
    const box = page.locator('#newsletter-form');
    // Typed text is readable: dark on the white input (it used to inherit the box's white).
    const input = box.locator('input[type="email"]');
    expect(await input.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(27, 37, 51)');
    await input.fill('not-an-email');
    await box.getByRole('button', { name: 'Subscribe' }).click();
    // The browser's own message; nothing sent.
    expect(await input.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
    await input.fill(email);
    await box.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('Please complete the CAPTCHA');
    await box.getByLabel('I am human').check();
    await box.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('Thank you for subscribing!');
    expect(await toast(page).textContent()).toContain('check your inbox');
    expect(await input.inputValue()).toBe('');
    const listed = await admin('GET', `/api/admin/email-subscribers?q=${encodeURIComponent(email)}`);
    expect(listed.body?.items).toEqual([]);
    const csv = await fetch(new URL('/api/admin/email-subscribers?format=csv', baseURL), {
      headers: { Cookie: cookie },
    });
    expect(await csv.text()).not.toContain(email);
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('has the newest articles and the next events in its HTML, and archive pages with rel prev/next', async () => {
    const html = await (await fetch(new URL('/blog', baseURL))).text();
    const { articles } = (await (await fetch(new URL('/api/news', baseURL))).json()) as {
      articles: { slug: string }[];
    };
    expect(html).toContain(`href="/article/${articles[0]!.slug}"`);
    const { events } = (await (await fetch(new URL('/api/events', baseURL))).json()) as {
      events: { title: string }[];
    };
    expect(html).toContain(events[0]!.title);
  });
});

describe('article', () => {
  it('renders a published article on the server, with share fallback copying the link', async () => {
    expect((await admin('POST', '/api/admin/news', article(`Shared ${stamp}`, true))).status).toBe(201);
    const res = await fetch(new URL(`/article/shared-${stamp}`, baseURL));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>Shared ${stamp}`);
    expect(html).toMatch(new RegExp(`og:title" content="Shared ${stamp}`));
    expect(html).toContain(`Shared ${stamp} excerpt`);
    expect(res.headers.get('netlify-cache-tag')).toBe('news');

    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    const page = await browser.newPage();
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
    });
    await page.goto(`/article/shared-${stamp}`);
    await page.waitForSelector('[data-share][data-share-ready]');
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('Link copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${baseURL}/article/shared-${stamp}`,
    );
    await page.waitForTimeout(600); // let the toast finish fading in before measuring contrast
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('answers 404 with the not-found state for unknown and unpublished slugs', async () => {
    for (const slug of ['no-such-article', `draft-${stamp}`]) {
      const res = await fetch(new URL(`/article/${slug}`, baseURL));
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain('Article Not Found');
      expect(html).toContain(
        'The article you&#39;re looking for doesn&#39;t exist or has been unpublished.'.replace(
          /&#39;/g,
          "'",
        ),
      );
      expect(html).toContain('href="/blog"');
    }
    const page = await browser.newPage();
    await page.goto('/article/no-such-article');
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('serves rss, sitemap and the calendar feed', async () => {
    const published = Boolean(cookie);
    const rss = await fetch(new URL('/rss.xml', baseURL));
    expect(rss.headers.get('content-type')).toContain('application/rss+xml');
    const rssText = await rss.text();
    expect(rssText).toContain('<rss version="2.0"');
    if (published) expect(rssText).toContain(`Published ${stamp}`);
    expect(rssText).not.toContain(`Draft ${stamp}`);
    const sitemap = await (await fetch(new URL('/sitemap.xml', baseURL))).text();
    if (published) expect(sitemap).toContain(`/article/published-${stamp}`);
    expect(sitemap).toContain('/volunteer');
    const ics = await fetch(new URL('/events.ics', baseURL));
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    const icsText = await ics.text();
    expect(icsText.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
  });
});
