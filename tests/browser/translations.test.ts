import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { apiAs, dashboardBrowser, expectToast, login, openDashboard } from './helpers/staff';

/*
 * An editor writes an article's Spanish
 * version; an English edit marks it out of date; "Mark as up to date" clears
 * it; the Spanish news list shows it. Events: Spanish title and description in
 * the event form. Against the dev server (real endpoints, local Blobs).
 */

const browser = dashboardBrowser();

const run = Date.now().toString(36);

const recordOf = (page: Page, list: string, title: string): Locator =>
  page.getByRole('list', { name: list }).getByRole('listitem').filter({ hasText: title });

describe('dashboard: Spanish versions', () => {
  it('an article: write the Spanish version, see it go stale after an English edit, mark it up to date', async () => {
    const cookie = (await login('editor')).cookie;
    const title = `Drainage plan ${run}`;
    const english = {
      title,
      slug: `drainage-${run}`,
      excerpt: 'Block by block.',
      content: '<p>Pumps first.</p>',
      author: 'Press Office',
      isPublished: true,
    };
    const created = await apiAs(cookie, 'POST', '/api/admin/news', english);
    expect(created.status).toBe(201);
    const id = (created.json!.article as { id: number }).id;

    const page = await openDashboard(browser, 'editor');
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
    const es = await apiAs(null, 'GET', '/api/news?lang=es');
    const mine = (es.json!.articles as { id: number; lang: string; title: string; slug: string }[]).find(
      (a) => a.id === id,
    );
    expect(mine).toMatchObject({ lang: 'es', title: `Plan de drenaje ${run}`, slug: `plan-drenaje-${run}` });

    // Someone edits the English: the dashboard marks the Spanish out of date.
    const now = await apiAs(cookie, 'GET', '/api/admin/news?pageSize=200');
    const stored = (now.json!.articles as { id: number; updatedAt: string }[]).find((a) => a.id === id)!;
    const edit = await apiAs(cookie, 'PUT', `/api/admin/news/${id}`, {
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
    const page = await openDashboard(browser, 'editor');
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

    const es = await apiAs(null, 'GET', '/api/events?lang=es');
    expect(
      (es.json!.events as { title: string; lang: string }[]).find((e) => e.title === `Asamblea ${run}`),
    ).toMatchObject({
      lang: 'es',
    });
    await page.close();
  });
});
