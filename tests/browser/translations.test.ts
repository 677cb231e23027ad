import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { baseURL, buildURL, launchBrowser, type BrowserSession } from './helpers/browser';

/*
 * Issue 12, item 4, in the dashboard: an editor writes an article's Spanish
 * version; an English edit marks it out of date; "Mark as up to date" clears
 * it; the Spanish news list shows it. Events: Spanish title and description in
 * the event form. Against the dev server (real endpoints, local Blobs).
 */

let browser: BrowserSession;
beforeAll(async () => {
  // The dashboard as built for production (production React, bundled scripts), on the dev server's API.
  browser = await launchBrowser({ baseURL: buildURL });
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await browser.context.clearCookies();
});

const run = Date.now().toString(36);

async function api(cookie: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      Origin: baseURL,
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return {
    status: res.status,
    json: (await res.json().catch(() => null)) as Record<string, unknown> | null,
    res,
  };
}

async function editorCookie(): Promise<string> {
  const { res, status } = await api(null, 'POST', '/api/auth/login', {
    username: 'editor',
    password: 'editor-dev-password',
  });
  expect(status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

async function expectToast(page: Page, title: string) {
  await page
    .locator('[data-sonner-toast]')
    .filter({ has: page.locator('[data-title]', { hasText: title }) })
    .first()
    .waitFor();
}

async function openDashboard(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto('/admin');
  await page.getByLabel('Username or Email').fill('editor');
  await page.getByLabel('Password', { exact: true }).fill('editor-dev-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
  return page;
}

const recordOf = (page: Page, list: string, title: string): Locator =>
  page.getByRole('list', { name: list }).getByRole('listitem').filter({ hasText: title });

describe('dashboard: Spanish versions', () => {
  it('an article: write the Spanish version, see it go stale after an English edit, mark it up to date', async () => {
    const cookie = await editorCookie();
    const title = `Drainage plan ${run}`;
    const english = {
      title,
      slug: `drainage-${run}`,
      excerpt: 'Block by block.',
      content: '<p>Pumps first.</p>',
      author: 'Press Office',
      isPublished: true,
    };
    const created = await api(cookie, 'POST', '/api/admin/news', english);
    expect(created.status).toBe(201);
    const id = (created.json!.article as { id: number }).id;

    const page = await openDashboard();
    const record = recordOf(page, 'Articles', title);
    await record.getByText('Spanish: none').waitFor();
    await record.getByRole('button', { name: `Spanish version ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Spanish version' });
    await dialog.getByLabel('Spanish title').fill(`Plan de drenaje ${run}`);
    await dialog.getByLabel('Spanish slug').fill(`Plan Drenaje ${run}`);
    await dialog.getByLabel('Spanish excerpt').fill('Cuadra por cuadra.');
    await dialog.getByRole('textbox', { name: 'Spanish content (required)' }).click();
    await page.keyboard.type('Primero las bombas.');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Save Spanish version' }).click();
    await expectToast(page, 'Spanish version saved');
    await record.getByText('Spanish: up to date').waitFor();

    // The Spanish news list has it, under its own slug.
    const es = await api(null, 'GET', '/api/news?lang=es');
    const mine = (es.json!.articles as { id: number; lang: string; title: string; slug: string }[]).find(
      (a) => a.id === id,
    );
    expect(mine).toMatchObject({ lang: 'es', title: `Plan de drenaje ${run}`, slug: `plan-drenaje-${run}` });

    // Someone edits the English: the dashboard marks the Spanish out of date.
    const now = await api(cookie, 'GET', '/api/admin/news?pageSize=200');
    const stored = (now.json!.articles as { id: number; updatedAt: string }[]).find((a) => a.id === id)!;
    const edit = await api(cookie, 'PUT', `/api/admin/news/${id}`, {
      ...english,
      content: '<p>Pumps and catch basins first.</p>',
      expectedUpdatedAt: stored.updatedAt,
    });
    expect(edit.status).toBe(200);
    await page.reload();
    await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
    await record.getByText('Spanish: out of date').waitFor();

    await record.getByRole('button', { name: `Spanish version ${title}` }).click();
    await dialog.getByText('The English changed after this Spanish version was made').waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Mark as up to date' }).click();
    await expectToast(page, 'Spanish version marked as up to date');
    await record.getByText('Spanish: up to date').waitFor();
    await page.close();
  });

  it('an event: Spanish title and description in the event form', async () => {
    const page = await openDashboard();
    await page.getByRole('tab', { name: 'Events Management' }).click();
    const title = `Town hall ${run}`;
    await page.getByRole('button', { name: 'Add Event' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Event' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Location').fill('Gentilly');
    await dialog.getByLabel('Date').fill('2099-10-01');
    await dialog.getByLabel('Start time').fill('18:00');
    await dialog.getByLabel('Description', { exact: true }).fill('Open to everyone.');
    await dialog.getByLabel('Spanish title').fill(`Asamblea ${run}`);
    await expectNoAxeViolations(page);
    // The English has a description: the Spanish one is needed too.
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await expectToast(page, 'Failed to create event');
    await dialog.getByLabel('Spanish description').fill('Abierta a todos.');
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await expectToast(page, 'Event created successfully!');
    await recordOf(page, 'Events', title).getByText('Spanish: up to date').waitFor();

    const es = await api(null, 'GET', '/api/events?lang=es');
    expect(
      (es.json!.events as { title: string; lang: string }[]).find((e) => e.title === `Asamblea ${run}`),
    ).toMatchObject({
      lang: 'es',
    });
    await page.close();
  });
});
