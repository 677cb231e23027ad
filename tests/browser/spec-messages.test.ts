import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { mockAdminApi, type MockApi, type MockOptions } from './helpers/admin-mock';
import { serveProductionBuild } from './helpers/prod-server';

/*
 * The spec's dashboard messages (sections 2, 5 and 8) that no other browser test makes the UI show:
 * each is driven onto the screen here by making the call behind it fail (a 500 from the stubbed API,
 * or a network failure for the messages shown when the server gave none). Every message of those
 * sections is listed in tests/unit/spec-messages.test.ts, which fails when one is asserted by no
 * browser test. Same set-up as admin-ui.test.ts: the production build's /admin, the API stubbed.
 */

let server: Awaited<ReturnType<typeof serveProductionBuild>>;
let browser: BrowserSession;
beforeAll(async () => {
  server = await serveProductionBuild(process.cwd());
  browser = await launchBrowser({ baseURL: server.url });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openAdmin(opts: MockOptions): Promise<{ page: Page; api: MockApi }> {
  const page = await browser.newPage();
  const api = await mockAdminApi(page, opts);
  await page.goto('/admin');
  return { page, api };
}

/**
 * The next `method` call to a path matching `glob` fails: with `status` and an empty body (the
 * server said nothing: the UI's own fallback shows), or, with 'network', without an answer.
 * Registered after the stubbed API, so it is asked first; other calls go on to the stub.
 */
async function failNext(page: Page, method: string, glob: string, how: number | 'network'): Promise<void> {
  let done = false;
  await page.route(glob, (route) => {
    if (done || route.request().method() !== method) return route.fallback();
    done = true;
    return how === 'network' ? route.abort('failed') : route.fulfill({ status: how, body: '' });
  });
}

/** Waits for the toast with this title and description. */
async function expectToast(page: Page, title: string, description: string) {
  const toast = page
    .locator('[data-sonner-toast]')
    .filter({ has: page.locator('[data-title]', { hasText: title }) })
    .filter({ has: page.locator('[data-description]', { hasText: description }) })
    .first();
  await toast.waitFor();
  expect(await toast.locator('[data-title]').innerText()).toBe(title);
  expect(await toast.locator('[data-description]').innerText()).toBe(description);
}

describe('spec messages the dashboard shows on failure (stubbed API)', () => {
  it("'Access Denied' for a signed-in account without the view_admin permission", async () => {
    const page = await browser.newPage();
    const api = await mockAdminApi(page, { role: 'viewer' });
    const stranger = { id: 9, username: 'stranger', email: 's@example.com', role: 'volunteer' };
    // Every time the dashboard asks (it may ask again when the window gets focus).
    for (let i = 0; i < 5; i++) api.override('GET /api/auth/me', 200, { role: 'volunteer', user: stranger });
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    expect(await page.getByText("You don't have permission to access this area.").isVisible()).toBe(true);
    expect(await page.getByRole('tablist', { name: 'Dashboard sections' }).count()).toBe(0);
    await page.close();
  });

  it("'Failed to update metric' and 'Failed to update goal'", async () => {
    const { page } = await openAdmin({ role: 'editor' });
    await page.getByRole('tab', { name: 'Campaign Progress' }).click();
    await page.getByRole('button', { name: 'Edit Doors knocked' }).click();
    await failNext(page, 'PUT', '**/api/admin/metrics/*', 500);
    await page.getByRole('button', { name: 'Update Metric' }).click();
    await expectToast(page, 'Failed to update metric', 'Please try again.');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Edit New recruits' }).click();
    await failNext(page, 'PUT', '**/api/admin/volunteer-goals/*', 500);
    await page.getByRole('button', { name: 'Update Goal' }).click();
    await expectToast(page, 'Failed to update goal', 'Please try again.');
    await page.close();
  });

  it("'Failed to delete article', and 'Failed to create article' / 'Please check your input and try again.'", async () => {
    const { page } = await openAdmin({ role: 'admin' });
    await failNext(page, 'DELETE', '**/api/admin/news/*', 500);
    await page.getByRole('button', { name: 'Delete Article 1' }).click();
    await page
      .locator('[data-sonner-toast]')
      .filter({ has: page.locator('[data-title]', { hasText: 'Failed to delete article' }) })
      .first()
      .waitFor();
    // Still listed: nothing was deleted.
    await page.getByRole('heading', { name: 'Article 1', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add Article' }).click();
    const add = page.getByRole('dialog', { name: 'Add Article' });
    await add.getByLabel('Title', { exact: true }).fill('T');
    await add.getByLabel('Slug').fill('t');
    await add.getByLabel('Content').fill('c');
    await failNext(page, 'POST', '**/api/admin/news', 'network');
    await add.getByRole('button', { name: 'Create Article' }).click();
    await expectToast(page, 'Failed to create article', 'Please check your input and try again.');
    expect(await add.isVisible()).toBe(true);
    await page.close();
  });

  it("'Failed to update event' / 'Please check your input and try again.' and 'Failed to delete event'", async () => {
    const { page } = await openAdmin({ role: 'admin' });
    await page.getByRole('tab', { name: 'Events Management' }).click();
    await page.getByRole('button', { name: 'Edit Town Hall East' }).click();
    await failNext(page, 'PUT', '**/api/admin/events/*', 500);
    await page.getByRole('button', { name: 'Update Event' }).click();
    await expectToast(page, 'Failed to update event', 'Please check your input and try again.');
    await page.keyboard.press('Escape');

    await failNext(page, 'DELETE', '**/api/admin/events/*', 500);
    await page.getByRole('button', { name: 'Delete Town Hall East' }).click();
    await page
      .locator('[data-sonner-toast]')
      .filter({ has: page.locator('[data-title]', { hasText: 'Failed to delete event' }) })
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Delete Town Hall East' }).waitFor();
    await page.close();
  });

  it("'Failed to update social media link'", async () => {
    const { page } = await openAdmin({ role: 'editor' });
    await page.getByRole('tab', { name: 'Social Media' }).click();
    await page.getByRole('button', { name: 'Edit X (Twitter)' }).click();
    await failNext(page, 'PUT', '**/api/admin/social-media-links/*', 500);
    await page.getByRole('dialog').getByRole('button', { name: 'Update Link' }).click();
    await page
      .locator('[data-sonner-toast]')
      .filter({ has: page.locator('[data-title]', { hasText: 'Failed to update social media link' }) })
      .first()
      .waitFor();
    expect(await page.getByRole('dialog').isVisible()).toBe(true);
    await page.close();
  });

  it("'Failed to create user', 'Failed to update user' and 'Failed to delete user', each with its fallback", async () => {
    const { page } = await openAdmin({ role: 'admin' });
    await page.getByRole('tab', { name: 'User Management' }).click();
    await page.getByRole('cell', { name: 'viewer@example.com' }).waitFor();

    await page.getByRole('button', { name: 'Add User' }).click();
    const add = page.getByRole('dialog', { name: 'Add User' });
    await add.getByLabel('Username').fill('newstaff');
    await add.getByLabel('Email').fill('newstaff@example.com');
    await add.getByLabel('Password', { exact: true }).fill('secret-1');
    await add.getByLabel('Role').selectOption('editor');
    await failNext(page, 'POST', '**/api/admin/users', 'network');
    await add.getByRole('button', { name: 'Create User' }).click();
    await expectToast(page, 'Failed to create user', 'An error occurred while creating the user');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Edit viewer' }).click();
    await failNext(page, 'PUT', '**/api/admin/users/*', 500);
    await page.getByRole('button', { name: 'Update User' }).click();
    await expectToast(page, 'Failed to update user', 'An error occurred while updating the user');
    await page.keyboard.press('Escape');

    await failNext(page, 'DELETE', '**/api/admin/users/*', 500);
    await page.getByRole('button', { name: 'Delete viewer' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Failed to delete user', 'An error occurred while deleting the user');
    await page.getByRole('cell', { name: 'viewer@example.com' }).waitFor();
    await page.close();
  });
});
