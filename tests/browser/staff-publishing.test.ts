import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/lib/server/auth/totp.ts';
import { articleSanitizer } from '../../src/lib/server/content/sanitize.ts';
import { expectNoAxeViolations } from './helpers/axe';
import { baseURL, launchBrowser, type BrowserSession } from './helpers/browser';

const sanitizeArticleHtml = await articleSanitizer();

/*
 * Issue 11 end to end against the dev server (real endpoints, local Blobs,
 * the seeded dev accounts): the visual editor, preview and publish; restoring
 * a first version and a deleted event; the Activity tab after scripted actions
 * by three roles; two-factor sign-in and the admins-must-enrol policy.
 */

let browser: BrowserSession;
beforeAll(async () => {
  await fetch(`${baseURL}/api/auth/me`);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await browser.context.clearCookies();
});

const run = Date.now().toString(36);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

// ---------------------------------------------------------------------------
// Helpers: the API as a given person (outside the browser), and the browser's sign-in.

interface Session {
  cookie: string;
  username: string;
  id: number;
}

async function apiAs(cookie: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      Origin: baseURL,
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* CSV or empty */
  }
  return { status: res.status, json, text, headers: res.headers };
}

const cookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');

async function login(username: string, password = `${username}-dev-password`): Promise<Session> {
  const res = await apiAs(null, 'POST', '/api/auth/login', { username, password });
  expect(res.status, res.text).toBe(200);
  const user = res.json!.user as { id: number; username: string };
  return { cookie: cookieOf(res.headers), username: user.username, id: user.id };
}

async function expectToast(page: Page, title: string) {
  await page
    .locator('[data-sonner-toast]')
    .filter({ has: page.locator('[data-title]', { hasText: title }) })
    .first()
    .waitFor();
}

async function signInPage(page: Page, username: string, password = `${username}-dev-password`) {
  await page.goto('/admin');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function openDashboard(username: string, password?: string): Promise<Page> {
  const page = await browser.newPage();
  await signInPage(page, username, password);
  await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
  return page;
}

// ---------------------------------------------------------------------------

describe('visual editor, preview and publish', () => {
  it('an editor writes a heading, a bold word, a link and an uploaded image with alt text, previews, publishes; /article/{slug} shows exactly those', async () => {
    const page = await openDashboard('editor');
    const title = `Editor flow ${run}`;
    const slug = `editor-flow-${run}`;
    await page.getByRole('button', { name: 'Add Article' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Article' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Slug').fill(slug);
    await dialog.getByLabel('Excerpt').fill('Written in the visual editor.');

    const editor = dialog.getByRole('textbox', { name: 'Content (required)' });
    const toolbar = dialog.getByRole('toolbar', { name: 'Formatting' });
    await editor.click();
    await page.keyboard.type('Our drainage plan');
    await toolbar.getByRole('button', { name: 'Heading 2' }).click();
    expect(await toolbar.getByRole('button', { name: 'Heading 2' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('We will ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('fix');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' the pumps. Read ');
    // A link through the toolbar's link panel, typed on an empty selection.
    await toolbar.getByRole('button', { name: 'Link' }).click();
    await dialog.getByLabel('Link address').fill('javascript:alert(1)');
    await dialog.getByRole('button', { name: 'Apply link' }).click();
    await dialog.getByText('Links must start with').waitFor();
    await dialog.getByLabel('Link address').fill('https://nola.gov/drainage');
    await dialog.getByRole('button', { name: 'Apply link' }).click();
    await editor.locator('a[href="https://nola.gov/drainage"]').waitFor();

    // The toolbar is one tab stop with arrow keys inside (WAI-ARIA toolbar).
    await toolbar.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('title'))).toBe('Italic');

    // An image: alt text is required before anything is uploaded.
    await editor.click();
    await page.keyboard.press('Control+End');
    await toolbar.getByRole('button', { name: 'Image' }).click();
    await dialog
      .getByLabel('Image file')
      .setInputFiles({ name: 'hub.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Insert image' }).click();
    await dialog.getByText('Describe the image').waitFor();
    await dialog.getByLabel('Alt text (required)').fill('Volunteers at the campaign hub');
    await dialog.getByRole('button', { name: 'Insert image' }).click();
    await editor.locator('img[alt="Volunteers at the campaign hub"]').waitFor();
    await expectNoAxeViolations(page);

    // Preview (unsaved, a draft) in a new tab: the public article component, nothing published.
    const [preview] = await Promise.all([
      browser.context.waitForEvent('page'),
      dialog.getByRole('button', { name: 'Preview' }).click(),
    ]);
    await preview.waitForURL(/\/admin\/preview\?draft=/);
    await preview.waitForLoadState();
    expect(await preview.locator('h1').first().innerText(), await preview.locator('main').innerText()).toBe(
      title,
    );
    const body = preview.locator('#article-view .article-body');
    await body.locator('h2', { hasText: 'Our drainage plan' }).waitFor();
    expect(await body.locator('strong').innerText()).toBe('fix');
    expect(await body.locator('a').getAttribute('href')).toBe('https://nola.gov/drainage');
    expect(await body.locator('img').getAttribute('alt')).toBe('Volunteers at the campaign hub');
    expect(await preview.getByText('this is a draft; it is not on the site.').count()).toBe(1);
    await expectNoAxeViolations(preview);
    await preview.close();
    expect((await apiAs(null, 'GET', `/article/${slug}`)).status).toBe(404);

    // Publish, capturing exactly what the editor sent.
    let sent = '';
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/admin/news'))
        sent = (JSON.parse(r.postData() ?? '{}') as { content: string }).content;
    });
    await dialog.getByLabel('Published').check();
    await dialog.getByRole('button', { name: 'Create Article' }).click();
    await expectToast(page, 'Article created successfully!');

    const pub = await browser.newPage();
    await pub.goto(`/article/${slug}`);
    const live = pub.locator('#article-view .article-body');
    expect(await live.locator('h2').innerText()).toBe('Our drainage plan');
    expect(await live.locator('strong').innerText()).toBe('fix');
    expect(await live.locator('a').getAttribute('href')).toBe('https://nola.gov/drainage');
    const img = live.locator('img');
    expect(await img.getAttribute('alt')).toBe('Volunteers at the campaign hub');
    expect(await img.getAttribute('src')).toMatch(/^\/api\/uploads\/[a-f0-9]{32}\.png$/);
    await pub.close();

    // Stored HTML = what the editor produced: the sanitiser removed nothing.
    const editorSession = await login('editor');
    const list = await apiAs(editorSession.cookie, 'GET', '/api/admin/news?pageSize=200');
    const stored = (list.json!.articles as { slug: string; content: string }[]).find((a) => a.slug === slug)!;
    expect(stored.content).toBe(sent);
    expect(sanitizeArticleHtml(stored.content)).toBe(stored.content);
    await page.close();
  }, 180_000);

  it('a scheduled article’s saved preview shows its publish time', async () => {
    const editor = await login('editor');
    const when = '2031-05-04T15:30:00.000Z';
    const created = await apiAs(editor.cookie, 'POST', '/api/admin/news', {
      title: `Scheduled ${run}`,
      slug: `scheduled-${run}`,
      content: '<p>Later.</p>',
      author: 'Press Office',
      isPublished: true,
      publishedAt: when,
    });
    const id = (created.json!.article as { id: number }).id;
    const anon = await apiAs(null, 'GET', `/admin/preview?id=${id}`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('cache-control')).toBe('no-store, private');
    const page = await openDashboard('editor');
    await page.goto(`/admin/preview?id=${id}`);
    await page.getByText('scheduled to publish on').waitFor();
    expect(await page.locator('.preview-banner time').getAttribute('datetime')).toBe(when);
    expect(await page.locator('.preview-banner').innerText()).toContain('May 4, 2031');
    await page.close();
  });
});

describe('revisions and Trash', () => {
  it('an edited article is restored to its first version from the dashboard', async () => {
    const editor = await login('editor');
    const slug = `history-${run}`;
    const base = { slug, author: 'Press Office', excerpt: '' };
    const created = await apiAs(editor.cookie, 'POST', '/api/admin/news', {
      ...base,
      title: `History first ${run}`,
      content: '<p>The first words.</p>',
    });
    const id = (created.json!.article as { id: number }).id;
    await apiAs(editor.cookie, 'PUT', `/api/admin/news/${id}`, {
      ...base,
      title: `History second ${run}`,
      content: '<p>The second words.</p>',
    });
    const page = await openDashboard('editor');
    await page.getByRole('button', { name: `History History second ${run}` }).click();
    const dialog = page.getByRole('dialog', { name: `History: History second ${run}` });
    await dialog.getByRole('button', { name: 'Version 2' }).waitFor();
    // The newest version's diff against the first: struck-through and inserted words.
    await dialog.locator('del', { hasText: 'first' }).first().waitFor();
    await dialog.locator('ins', { hasText: 'second' }).first().waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Restore version 1' }).click();
    await expectToast(page, 'Version 1 restored');
    await dialog.getByRole('button', { name: 'Version 3' }).waitFor();
    await dialog.getByText('Restored version 1 by editor').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('heading', { name: `History first ${run}` }).waitFor();
    const list = await apiAs(editor.cookie, 'GET', '/api/admin/news?pageSize=200');
    const now = (list.json!.articles as { id: number; content: string }[]).find((a) => a.id === id)!;
    expect(now.content).toBe('<p>The first words.</p>');
    await page.close();
  }, 180_000);

  it('a deleted event is restored from Trash by an admin', async () => {
    const editor = await login('editor');
    const title = `Trash rally ${run}`;
    const created = await apiAs(editor.cookie, 'POST', '/api/admin/events', {
      title,
      location: 'Congo Square',
      eventDate: '2031-03-01',
      startTime: '11:00',
      eventType: 'rally',
    });
    const id = (created.json!.event as { id: number }).id;
    const page = await openDashboard('editor');
    await page.getByRole('tab', { name: 'Events Management' }).click();
    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await expectToast(page, 'Event deleted successfully!');
    expect(await page.getByRole('tab', { name: 'Trash' }).count()).toBe(0);
    await page.close();

    await browser.context.clearCookies();
    const admin = await openDashboard('admin');
    await admin.getByRole('tab', { name: 'Trash' }).click();
    const row = admin.getByRole('row').filter({ hasText: title });
    await row.waitFor();
    expect(await row.innerText()).toContain('editor');
    await expectNoAxeViolations(admin);
    await admin.getByRole('button', { name: `Restore ${title}` }).click();
    await expectToast(admin, 'Event restored');
    await row.waitFor({ state: 'detached' });
    await admin.getByRole('tab', { name: 'Events Management' }).click();
    await admin.getByRole('heading', { name: title }).waitFor();
    const ev = await apiAs((await login('admin')).cookie, 'GET', `/api/admin/events/${id}/revisions`);
    expect((ev.json!.revisions as { action: string }[]).map((r) => r.action)).toEqual([
      'trash-restore',
      'create',
    ]);
    await admin.close();
  }, 180_000);
});

describe('Activity tab', () => {
  it('after a day of scripted actions by three roles, shows each with the right person, and the CSV has them all', async () => {
    const admin = await login('admin');
    const editor = await login('editor');
    const viewer = await login('viewer');
    // Mark where this run starts.
    const before = await apiAs(admin.cookie, 'GET', '/api/admin/activity?pageSize=1');
    const startSeq = (before.json!.entries as { seq: number }[])[0]?.seq ?? 0;

    const slug = `activity-${run}`;
    const a = await apiAs(editor.cookie, 'POST', '/api/admin/news', {
      title: `Activity ${run}`,
      slug,
      content: '<p>a</p>',
      author: 'Press Office',
    });
    const articleId = (a.json!.article as { id: number }).id;
    await apiAs(editor.cookie, 'PUT', `/api/admin/news/${articleId}`, {
      title: `Activity ${run}`,
      slug,
      content: '<p>a</p>',
      author: 'Press Office',
      isPublished: true,
    });
    await apiAs(admin.cookie, 'PUT', '/api/admin/metrics/2', {
      currentValue: 1200,
      targetValue: 50000,
      label: 'Doors Knocked',
    });
    await apiAs(editor.cookie, 'GET', '/api/admin/contacts?format=csv');
    await apiAs(admin.cookie, 'DELETE', `/api/admin/news/${articleId}`);
    await apiAs(null, 'POST', '/api/auth/login', { username: 'viewer', password: 'wrong-password' });
    await apiAs(viewer.cookie, 'POST', '/api/auth/logout');
    const expected: [string, string][] = [
      ['editor', 'Created article'],
      ['editor', 'Published article'],
      ['admin', 'Edited metric'],
      ['editor', 'Exported inbox list'],
      ['admin', 'Deleted article'],
      ['viewer', 'Failed sign-in'],
      ['viewer', 'Signed out'],
    ];

    const page = await openDashboard('admin');
    await page.getByRole('tab', { name: 'Activity' }).click();
    const table = page.getByRole('table', { name: 'Staff actions, newest first' });
    await table.waitFor();
    await expectNoAxeViolations(page);
    const rows = () =>
      table
        .locator('tbody tr')
        .evaluateAll<string[][], HTMLElement>((trs) =>
          trs.map((tr) => [...tr.querySelectorAll<HTMLElement>('th, td')].map((c) => c.innerText.trim())),
        );
    const seen = (await rows()).map((r) => [r[1]!, r[2]!] as [string, string]);
    // Newest first: this run's actions appear in reverse order (the admin's own sign-in is newest).
    const ours = seen.filter(([, action]) => expected.some(([, e]) => e === action));
    expect(ours.slice(0, expected.length).reverse()).toEqual(expected);

    // Filter by person: only the editor's rows; then by action too.
    await page.getByLabel('Person', { exact: true }).selectOption({ label: 'editor' });
    await expect
      .poll(async () => [...new Set((await rows()).map((r) => r[1]))], { timeout: 20_000 })
      .toEqual(['editor']);
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Published article' });
    await expect
      .poll(async () => [...new Set((await rows()).map((r) => `${r[1]} ${r[2]}`))], { timeout: 20_000 })
      .toEqual(['editor Published article']);

    // CSV of everything (no filters): every one of this run's actions with the right person.
    const csv = await apiAs(admin.cookie, 'GET', '/api/admin/activity?format=csv');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n').slice(1);
    const runLines = lines.filter((l) => Number(l.split(',').at(-2)) > startSeq);
    for (const [who, action] of expected)
      expect(
        runLines.some((l) => l.includes(`,${who},`) && l.includes(`,${action},`)),
        `${who} ${action}`,
      ).toBe(true);
    // The page's Export link points at the same CSV with the current filters.
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain('format=csv');
    await page.close();
  }, 180_000);
});

describe('two-factor sign-in', () => {
  async function createUser(
    role: 'admin' | 'editor',
    name: string,
  ): Promise<{ username: string; password: string }> {
    const admin = await login('admin');
    const username = `${name}-${run}`.slice(0, 40);
    const password = `${username}-password`;
    const res = await apiAs(admin.cookie, 'POST', '/api/admin/users', {
      username,
      email: `${username}@example.org`,
      password,
      role,
    });
    expect(res.status, res.text).toBe(201);
    return { username, password };
  }

  it('with two-factor on, the password alone is not enough; a used code or recovery code is refused the second time', async () => {
    const { username, password } = await createUser('editor', 'tfa');
    const page = await openDashboard(username, password);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await expectNoAxeViolations(page);
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('code').allInnerTexts();
    expect(codes).toHaveLength(10);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await page.getByText('Status: On').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();

    // The password alone: a code is asked for, and there is no session.
    await signInPage(page, username, password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await expectNoAxeViolations(page);
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    const code = totpCode(secret, Date.now() + 30_000);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();

    // The same code again: refused.
    await signInPage(page, username, password);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectToast(page, 'Login failed');
    expect(await page.getByRole('tablist', { name: 'Dashboard sections' }).count()).toBe(0);

    // A recovery code works once.
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await signInPage(page, username, password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectToast(page, 'Login failed');
    expect(await page.getByRole('tablist', { name: 'Dashboard sections' }).count()).toBe(0);
    await page.close();
  }, 180_000);

  it('an admin who requires two-factor for admins sends an un-enrolled admin to enrolment', async () => {
    const boss = await createUser('admin', 'boss');
    const other = await createUser('admin', 'other');
    // The boss enrols through the API (the UI flow is covered above).
    const bossSession = await login(boss.username, boss.password);
    const setup = await apiAs(bossSession.cookie, 'POST', '/api/auth/two-factor/setup');
    const secret = setup.json!.secret as string;
    const enabled = await apiAs(bossSession.cookie, 'POST', '/api/auth/two-factor/enable', {
      code: totpCode(secret),
    });
    expect(enabled.status).toBe(200);
    const recoveryCodes = enabled.json!.recoveryCodes as string[];
    try {
      const page = await browser.newPage();
      await signInPage(page, boss.username, boss.password);
      await page.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('tab', { name: 'Security' }).click();
      await page.getByLabel('Require two-factor sign-in for admins').check();
      await page.getByRole('button', { name: 'Save policy' }).click();
      await expectToast(page, 'Two-factor policy saved');
      await page.close();

      await browser.context.clearCookies();
      const blocked = await browser.newPage();
      await signInPage(blocked, other.username, other.password);
      await blocked.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
      expect(await blocked.getByRole('tablist', { name: 'Dashboard sections' }).count()).toBe(0);
      await blocked.getByRole('img', { name: /QR code/ }).waitFor();
      await expectNoAxeViolations(blocked);
      // Enrolling opens the dashboard.
      const otherSecret = (await blocked.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
      await blocked.getByLabel('Code from the app').fill(totpCode(otherSecret));
      await blocked.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await blocked.getByRole('button', { name: 'I have saved my recovery codes' }).click();
      await blocked.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
      await blocked.close();
    } finally {
      // Never leave the policy on for the other test files (the dev admin has no second factor).
      const pending = await apiAs(null, 'POST', '/api/auth/login', {
        username: boss.username,
        password: boss.password,
      });
      const verify = await apiAs(cookieOf(pending.headers), 'POST', '/api/auth/two-factor/verify', {
        recoveryCode: recoveryCodes[0],
      });
      const off = await apiAs(cookieOf(verify.headers), 'PUT', '/api/admin/two-factor', {
        requireForAdmins: false,
        requireForAllStaff: false,
      });
      if (off.status !== 200)
        console.error(
          `[policy clean-up] login ${pending.status}, verify ${verify.status} ${verify.text}, put ${off.status} ${off.text}`,
        );
    }
    const policy = await apiAs((await login('admin')).cookie, 'GET', '/api/admin/two-factor');
    expect(policy.json?.policy).toEqual({ requireForAdmins: false, requireForAllStaff: false });
  }, 180_000);
});
