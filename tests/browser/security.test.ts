/**
 * What a person sees of the fixes (the API tests in
 * tests/api/security-*.test.ts replay the attacks themselves).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe.ts';
import { baseURL, launchBrowser, type BrowserSession } from './helpers/browser.ts';
import { mockAdminApi } from './helpers/admin-mock.ts';
import { apiAs, devAdminCookie, hydrated, json, toast } from './helpers/public.ts';

let browser: BrowserSession;
let cookie = '';
const stamp = Date.now().toString(36);

const admin = (method: string, path: string, body?: unknown) => apiAs(cookie, method, path, body);

beforeAll(async () => {
  browser = await launchBrowser();
  cookie = await devAdminCookie();
  // A precondition that fails fails the tests that need it; it never skips them
  // (docs/decisions/163-tests.md).
  expect(cookie, 'the seeded dev admin signs in').not.toBe('');
});
afterAll(async () => {
  await browser?.close();
});

const OPTED_OUT =
  "This number asked us to stop texting it, so it can't be signed up again from the website. To get our texts again, reply START (or COMENZAR) from that phone to any text you got from Avery for Mayor.";

describe('text sign-up (finding 1 and 2)', () => {
  it('needs the bot check, and for a number that replied STOP shows how to text START instead of a success', async () => {
    const page = await browser.newPage();
    let sent: Record<string, unknown> | null = null;
    await page.route('**/api/newsletter', (route) => {
      sent = route.request().postDataJSON() as Record<string, unknown>;
      return json(route, 200, { message: OPTED_OUT, status: 'opted_out' });
    });
    await page.goto('/');
    await hydrated(page, 'TextSignupForm');
    const form = page.locator('#text-signup-form');
    await form.getByLabel('First Name').fill('Stranger');
    await form.getByLabel('Phone').fill('504-555-0133');
    await form.getByRole('checkbox', { name: /By checking this box/ }).check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    // The first toast loads the toast region on demand: allow for a slow dev server.
    await expect
      .poll(() => toast(page).textContent(), { timeout: 15_000 })
      .toContain('Please complete the CAPTCHA');
    expect(sent).toBeNull();

    await form.getByLabel('I am human').check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    const panel = form.getByRole('status');
    await panel.getByRole('heading', { name: 'Text START From Your Phone' }).waitFor({ timeout: 15_000 });
    expect(await panel.textContent()).toContain('reply START (or COMENZAR) from that phone');
    expect(await form.getByText("You're Signed Up!").count()).toBe(0);
    expect(sent).toMatchObject({ captcha: 'XXXX.DUMMY.TOKEN.XXXX', phone: '504-555-0133' });
    await expectNoAxeViolations(page);
    await panel.getByRole('button', { name: 'Use Another Number' }).click();
    await form.getByLabel('First Name').waitFor();
    await page.close();
  });

  it('a number outside the US gets the server message and the form stays filled', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await hydrated(page, 'TextSignupForm');
    const form = page.locator('#text-signup-form');
    await form.getByLabel('First Name').fill('Pump');
    await form.getByLabel('Phone').fill('+882 13 1000000');
    await form.getByRole('checkbox', { name: /By checking this box/ }).check();
    await form.getByLabel('I am human').check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    await expect.poll(() => toast(page).textContent(), { timeout: 20_000 }).toContain('Subscription failed');
    expect(await toast(page).textContent()).toContain('Please enter a phone number from the US.');
    expect(await form.getByLabel('Phone').inputValue()).toBe('+882 13 1000000');
    await page.close();
  }, 60_000);
});

describe('internal fields never reach a page (finding 3)', () => {
  const NOTE = `INTERNAL-NOTE-${stamp}: VIP list in the shared drive`;
  const CONTACT = `organizer-${stamp}@staff.example`;

  it('event notes and contact email: not on the blog, not in what the blog fetched, not in the calendar feed', async () => {
    const eventDate = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const created = await admin('POST', '/api/admin/events', {
      title: `Secret-notes town hall ${stamp}`,
      description: 'Open to everyone.',
      location: 'Gentilly',
      eventDate,
      startTime: '08:00',
      eventType: 'town_hall',
      isPublic: true,
      contactEmail: CONTACT,
      notes: NOTE,
    });
    expect(created.status).toBe(201);

    const page = await browser.newPage();
    const bodies: string[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/'))
        void r.text().then(
          (t) => bodies.push(t),
          () => undefined,
        );
    });
    await page.goto('/blog');
    await hydrated(page, 'UpcomingEvents');
    const list = page.locator('.event-list');
    await list.getByRole('heading', { name: `Secret-notes town hall ${stamp}` }).waitFor({ timeout: 20_000 });
    const html = await page.content();
    for (const secret of [NOTE, CONTACT]) {
      expect(html).not.toContain(secret);
      expect(await page.locator('body').innerText()).not.toContain(secret);
      for (const b of bodies) expect(b).not.toContain(secret);
    }
    // The blog's HTML carries the events (docs/decisions/162-public-pages-and-performance.md), so the island may not fetch at load: read its endpoint too.
    bodies.push(await (await fetch(new URL('/api/events', baseURL))).text());
    for (const secret of [NOTE, CONTACT]) for (const b of bodies) expect(b).not.toContain(secret);
    expect(bodies.some((b) => b.includes(`Secret-notes town hall ${stamp}`))).toBe(true);
    const ics = await (await fetch(new URL('/events.ics', baseURL))).text();
    expect(ics).toContain(`Secret-notes town hall ${stamp}`);
    expect(ics).not.toContain(NOTE);
    expect(ics).not.toContain(CONTACT);
    // Nor in the event's own file, the cards' "Add to calendar" link.
    const { id } = (created.body as { event: { id: number } }).event;
    const link = list.locator(`[data-event-id="${id}"] a[download]`);
    expect(await link.textContent()).toBe(`Add to calendar: Secret-notes town hall ${stamp}`);
    const one = await (await fetch(new URL((await link.getAttribute('href'))!, baseURL))).text();
    expect(one).toContain(`Secret-notes town hall ${stamp}`);
    expect(one).not.toContain(NOTE);
    expect(one).not.toContain(CONTACT);
    await page.close();
  }, 60_000);

  it('the article page shows the publication date, never the draft creation time', async () => {
    const created = await admin('POST', '/api/admin/news', {
      title: `Projection check ${stamp}`,
      slug: `projection-check-${stamp}`,
      content: '<p>Body.</p>',
      excerpt: 'Excerpt.',
      author: 'Press Office',
      isPublished: true,
      publishedAt: '2025-09-01T12:00:00.000Z',
    });
    expect(created.status).toBe(201);
    const createdAt = String((created.body?.article as { createdAt: string }).createdAt);
    const page = await browser.newPage();
    await page.goto(`/article/projection-check-${stamp}`);
    await page.getByRole('heading', { name: `Projection check ${stamp}` }).waitFor();
    const html = await page.content();
    expect(html).toContain('2025-09-01T12:00:00.000Z');
    expect(html).not.toContain(createdAt);
    const rss = await (await fetch(new URL('/rss.xml', baseURL))).text();
    expect(rss).toContain(`Projection check ${stamp}`);
    expect(rss).not.toContain(createdAt);
    await page.close();
  });
});

describe('staff dashboard (stubbed API)', () => {
  it('shows the daily text cap alert above the tabs, to every role', async () => {
    const page = await browser.newPage();
    const api = await mockAdminApi(page, { role: 'viewer' });
    api.override('GET /api/admin/alerts', 200, {
      alerts: [
        {
          kind: 'sms-daily-cap',
          day: '2025-09-22',
          at: '2025-09-22T20:15:00.000Z',
          message:
            'The daily cap of 500 texts (SMS_DAILY_CAP) was reached: new text sign-ups and reminder texts are refused until 2025-09-23T00:00:00.000Z.',
        },
      ],
      smsToday: { used: 500, max: 500, resetsAt: '2025-09-23T00:00:00.000Z' },
    });
    await page.goto('/admin');
    const banner = page.getByRole('alert').filter({ hasText: 'daily cap of 500 texts' });
    await banner.waitFor({ timeout: 20_000 });
    expect(await banner.textContent()).toContain('Texts sent today: 500 of 500');
    await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('no banner without alerts', async () => {
    const page = await browser.newPage();
    const api = await mockAdminApi(page, { role: 'admin' });
    api.override('GET /api/admin/alerts', 200, {
      alerts: [],
      smsToday: { used: 3, max: 500, resetsAt: '2025-09-23T00:00:00.000Z' },
    });
    await page.goto('/admin');
    await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => api.calls.some((c) => c.path === '/api/admin/alerts')).toBe(true);
    expect(await page.locator('.dash-alerts').count()).toBe(0);
    await page.close();
  });
});
