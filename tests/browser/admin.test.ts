import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { buildURL } from './helpers/browser';
import { createStaff, dashboardBrowser } from './helpers/staff';

/*
 * The staff dashboard end to end: the dev server's real endpoints, its local
 * Blobs (fresh for each run, see global-setup.ts) and the dev accounts that
 * `npm run seed` writes before the dev server starts (README "Dev accounts"). Every record made
 * here has a unique name, so the file can run again on the same dev data.
 */

const browser = dashboardBrowser();

const run = Date.now().toString(36);
const DUMMY_CAPTCHA = 'XXXX.DUMMY.TOKEN.XXXX';

async function expectToast(page: Page, title: string, description?: string) {
  // Match title and description together: an older toast with the same title may still be on its way out.
  let toast = page
    .locator('[data-sonner-toast]')
    .filter({ has: page.locator('[data-title]', { hasText: title }) });
  if (description !== undefined) {
    toast = toast.filter({ has: page.locator('[data-description]', { hasText: description }) });
  }
  await toast.first().waitFor();
  if (description !== undefined) {
    expect(await toast.first().locator('[data-description]').innerText()).toBe(description);
  }
}

async function openLogin(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
  return page;
}

async function signIn(page: Page, username: string, password = `${username}-dev-password`) {
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function openDashboard(username: 'admin' | 'editor' | 'viewer'): Promise<Page> {
  const page = await openLogin();
  await signIn(page, username);
  await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
  return page;
}

/** Same-origin JSON call from the page's context (cookies included, Origin set for the CSRF check). */
async function api(page: Page, method: string, path: string, data?: unknown) {
  const res = await page.request.fetch(path, {
    method,
    data,
    headers: { Origin: buildURL, 'Content-Type': 'application/json' },
  });
  return {
    status: res.status(),
    body: (await res.json().catch(() => null)) as Record<string, unknown> | null,
  };
}

describe('admin sign-in (dev server)', () => {
  it('login form has no axe violations; a wrong password says Login failed / Invalid credentials', async () => {
    const page = await openLogin();
    await expectNoAxeViolations(page);
    await signIn(page, 'viewer', 'not-the-password');
    await expectToast(page, 'Login failed', 'Invalid credentials');
    expect(await page.getByRole('tablist', { name: 'Dashboard sections' }).count()).toBe(0);
    await page.close();
  });

  it('forgot mode sends a temporary password and returns to the login form', async () => {
    const page = await openLogin();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('button', { name: 'Send Temporary Password' }).click();
    await expectToast(page, 'Please enter your email address');
    await page.getByLabel('Email').fill(`nobody-${run}@example.org`);
    await page.getByRole('button', { name: 'Send Temporary Password' }).click();
    await expectToast(page, 'Temporary Password Sent');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.close();
  });

  it('logout clears the data; the back button shows none and the session is gone', async () => {
    // An account of this test's own: logout ends every session of the person (docs/decisions/160-staff-sign-in-and-sessions.md),
    // and other test files running beside this one are signed in as the seeded editor.
    const person = await createStaff('editor', `logout-${run}`);
    const page = await openLogin();
    await signIn(page, person.username, person.password);
    await page.getByRole('tab', { name: 'Blog Management' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectToast(page, 'Logged out successfully');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    await page.goto('/about');
    await page.goBack();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    expect((await api(page, 'GET', '/api/auth/me')).status).toBe(401);
    await page.close();
  });
});

describe('admin roles (dev server)', () => {
  it('editor: no User Management tab, and the server refuses the users list', async () => {
    const page = await openDashboard('editor');
    const tabs = await page.getByRole('tab').allInnerTexts();
    expect(tabs).not.toContain('User Management');
    expect(tabs).toContain('Blog Management');
    expect((await api(page, 'GET', '/api/admin/users')).status).toBe(403);
    await page.close();
  });

  it('viewer: no add, edit or delete controls anywhere', async () => {
    const page = await openDashboard('viewer');
    const tabs = await page.getByRole('tab').allInnerTexts();
    expect(tabs).toEqual([
      'Blog Management',
      'Events Management',
      'Social Media',
      'Overview',
      'Campaign Progress',
      'People',
      'Donations',
      'Outreach Links',
      'Security',
    ]);
    for (const tab of tabs) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel').getByRole('heading', { level: 2 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(
        await page
          .getByRole('tabpanel')
          .getByRole('button', { name: /^(Add|Edit|Delete)/ })
          .count(),
      ).toBe(0);
    }
    await page.close();
  });
});

describe('admin content (dev server)', () => {
  it('article: create as draft (not public), publish (public), edit, delete', async () => {
    const page = await openDashboard('admin');
    await expectNoAxeViolations(page);
    const title = `E2E Article ${run}`;
    const slug = `e2e-article-${run}`;
    await page.getByRole('button', { name: 'Add Article' }).click();
    const add = page.getByRole('dialog', { name: 'Add Article' });
    await expectNoAxeViolations(page);
    await add.getByLabel('Title', { exact: true }).fill(title);
    await add.getByLabel('Slug').fill(`E2E Article ${run}`);
    expect(await add.getByLabel('Slug').inputValue()).toBe(slug);
    await add.getByLabel('Excerpt').fill('An end-to-end test article.');
    await add.getByLabel('Content').fill('<p>Hello from the browser test.</p>');
    await add.getByRole('button', { name: 'Create Article' }).click();
    await expectToast(page, 'Article created successfully!');
    await add.waitFor({ state: 'detached' });
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await card.locator('.badge', { hasText: 'Draft' }).waitFor();

    const isPublic = async () => {
      const res = await api(page, 'GET', '/api/news');
      return ((res.body?.articles ?? []) as { slug: string }[]).some((a) => a.slug === slug);
    };
    expect(await isPublic()).toBe(false);
    await page.goto('/blog');
    expect(await page.getByText(title).count()).toBe(0);
    await page.goBack();

    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Article' });
    await edit.getByLabel('Published').check();
    await edit.getByLabel('Excerpt').fill('Now published.');
    await edit.getByRole('button', { name: 'Update Article' }).click();
    await expectToast(page, 'Article updated successfully!');
    await card.locator('.badge', { hasText: 'Published' }).waitFor();
    expect(await isPublic()).toBe(true);

    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await expectToast(page, 'Article deleted successfully!');
    await page.getByRole('heading', { name: title }).waitFor({ state: 'detached' });
    expect(await isPublic()).toBe(false);
    await page.close();
  });

  it('event: create, edit, delete', async () => {
    const page = await openDashboard('admin');
    await page.getByRole('tab', { name: 'Events Management' }).click();
    const title = `E2E Town Hall ${run}`;
    await page.getByRole('button', { name: 'Add Event' }).click();
    const add = page.getByRole('dialog', { name: 'Add Event' });
    await expectNoAxeViolations(page);
    await add.getByLabel('Title', { exact: true }).fill(title);
    await add.getByLabel('Location').fill('Main Library');
    await add.getByLabel('Date').fill('2030-10-01');
    await add.getByLabel('Start time').fill('18:00');
    await add.getByRole('button', { name: 'Create Event' }).click();
    await expectToast(page, 'Event created successfully!');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await card.getByText('Unlimited').waitFor();

    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Event' });
    await edit.getByLabel('Max attendees').fill('120');
    await edit.getByRole('button', { name: 'Update Event' }).click();
    await expectToast(page, 'Event updated successfully!');
    await card.getByText('120').waitFor();

    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await expectToast(page, 'Event deleted successfully!');
    await page.getByRole('heading', { name: title }).waitFor({ state: 'detached' });
    await page.close();
  });

  it('user: create, edit (blank password unchanged), delete after confirmation', async () => {
    const page = await openDashboard('admin');
    await page.getByRole('tab', { name: 'User Management' }).click();
    await page.getByRole('table').waitFor();
    await expectNoAxeViolations(page);
    const username = `e2e-${run}`;
    await page.getByRole('button', { name: 'Add User' }).click();
    const add = page.getByRole('dialog', { name: 'Add User' });
    await expectNoAxeViolations(page);
    await add.getByLabel('Username').fill(username);
    await add.getByLabel('Email').fill(`${username}@example.org`);
    await add.getByLabel('Password', { exact: true }).fill('first-password');
    await add.getByLabel('Role').selectOption('viewer');
    await add.getByRole('button', { name: 'Create User' }).click();
    await expectToast(page, 'User created successfully!');
    const row = page.getByRole('row').filter({ hasText: username });
    await row.getByText('Never').waitFor();

    await page.getByRole('button', { name: `Edit ${username}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByLabel('First name').fill('Edna');
    await edit.getByRole('button', { name: 'Update User' }).click();
    await expectToast(page, 'User updated successfully!');
    await row.getByText('Edna').waitFor();

    // The blank password left the old one in place (a cookie-less request: the page keeps the admin session).
    const login = await fetch(`${buildURL}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: buildURL, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password: 'first-password' }),
    });
    expect(login.status).toBe(200);

    await page.getByRole('button', { name: `Delete ${username}` }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.innerText()).toContain(
      'Are you sure you want to delete this user? This action cannot be undone.',
    );
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'User deleted successfully!');
    await row.waitFor({ state: 'detached' });
    await page.close();
  });

  it('social and progress modals have no axe violations', async () => {
    const page = await openDashboard('admin');
    await page.getByRole('tab', { name: 'Social Media' }).click();
    // Audit each tab once its records are on screen, not while it is still loading.
    await page.getByRole('tabpanel').getByRole('button', { name: /^Edit/ }).first().waitFor();
    const socialEdit = page.getByRole('tabpanel').getByRole('button', { name: /^Edit/ }).first();
    if (await socialEdit.count()) {
      await socialEdit.click();
      await page.getByRole('dialog').waitFor();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
    }
    await page.getByRole('tab', { name: 'Campaign Progress' }).click();
    for (const section of ['Metrics', 'Volunteer goals', 'Milestones'])
      await page
        .getByRole('region', { name: section })
        .getByRole('button', { name: /^Edit/ })
        .first()
        .waitFor();
    await expectNoAxeViolations(page);
    for (const section of ['Metrics', 'Volunteer goals', 'Milestones']) {
      const edit = page.getByRole('region', { name: section }).getByRole('button', { name: /^Edit/ }).first();
      if (!(await edit.count())) continue;
      await edit.click();
      await page.getByRole('dialog').waitFor();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    await page.close();
  });
});

describe('admin inbox and recovery (dev server)', () => {
  it('CSV export downloads the stored rows', async () => {
    const page = await openDashboard('editor');
    const email = `csv-${run}@example.org`;
    const sent = await api(page, 'POST', '/api/contact', {
      name: `CSV Tester ${run}`,
      email,
      phone: '',
      subject: 'general',
      message: 'Export me',
      captcha: DUMMY_CAPTCHA,
    });
    expect(sent.status).toBe(201);
    await page.getByRole('tab', { name: 'Inbox' }).click();
    await page.getByLabel('Show').selectOption('contacts');
    await page.getByLabel('Search').fill(email);
    await page.getByRole('cell', { name: email }).waitFor();
    await expectNoAxeViolations(page);
    // Export CSV prepares the file (at once for a list this short) and offers its link
    // (docs/decisions/156-exports.md).
    await page.getByRole('button', { name: /Export CSV/ }).click();
    const link = page.getByRole('link', { name: /^Download contacts-[\d-]+\.csv/ });
    await link.waitFor();
    await expectNoAxeViolations(page);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    // The shared browser runs in another process: read the download as a stream, not a local path.
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv).toContain(email);
    await page.close();
  });

  it('Export all lists: one CSV per Inbox list, each with its own link; the files hold the stored rows', async () => {
    const page = await openDashboard('editor');
    const email = `all-${run}@example.org`;
    const sent = await api(page, 'POST', '/api/contact', {
      name: `All Lists ${run}`,
      email,
      phone: '',
      subject: 'general',
      message: '=1+1 is data, not a formula',
      captcha: DUMMY_CAPTCHA,
    });
    expect(sent.status).toBe(201);
    await page.getByRole('tab', { name: 'Inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // One action in the Inbox (docs/decisions/156-exports.md): a file per list, each its own link.
    await page.getByRole('button', { name: /^Export all lists/ }).click();
    for (const name of ['volunteers', 'contacts', 'text-signups', 'email-subscribers'])
      await page.getByRole('link', { name: new RegExp(`^Download ${name}-[\\d-]+\\.csv`) }).waitFor();
    await expectNoAxeViolations(page);
    const link = page.getByRole('link', { name: /^Download contacts-[\d-]+\.csv/ });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv).toContain(email);
    // The message starts with '=': kept as text ('=1+1 ...), never a formula a spreadsheet would run.
    expect(csv).toContain("'=1+1 is data, not a formula");
    await page.close();
  });

  it('a temporary password leads straight to the change-password form', async () => {
    const admin = await openDashboard('admin');
    const username = `temp-${run}`;
    const email = `${username}@example.org`;
    const created = await api(admin, 'POST', '/api/admin/users', {
      username,
      email,
      password: 'original-password',
      role: 'editor',
      firstName: 'Temp',
      lastName: '',
      isActive: true,
    });
    expect(created.status).toBe(201);
    await admin.close();
    await browser.context.clearCookies();

    const page = await openLogin();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Temporary Password' }).click();
    await expectToast(page, 'Temporary Password Sent');

    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/outbox.mts', 'email'], {
      cwd: process.cwd(),
    });
    const mail =
      stdout
        .split('─'.repeat(72))
        .reverse()
        .find((m) => m.includes(`to ${email}`)) ?? '';
    const temp = /Temporary password: (\S+)/.exec(mail)?.[1];
    expect(temp, 'temporary password email in the local outbox').toBeTruthy();

    await signIn(page, username, temp);
    await page.getByRole('heading', { name: 'Change Your Password' }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel('Current or temporary password').fill(temp!);
    await page.getByLabel('New password', { exact: true }).fill('brand-new-password');
    await page.getByLabel('Confirm new password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
    await page.close();
  });
});
