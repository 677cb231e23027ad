import { IDENTITY } from '../../src/content/identity.ts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { launchBrowser, type BrowserSession, type ViewportName } from './helpers/browser';
import { mockAdminApi, type MockOptions } from './helpers/admin-mock';
import { serveProductionBuild } from './helpers/prod-server';

/*
 * The dashboard's behaviour with the admin API stubbed in the page (helpers/admin-mock.ts):
 * every message, role rule, modal and keyboard path, independent of the server modules.
 * admin.test.ts runs the same flows end to end against the real endpoints.
 *
 * The dashboard here is the production build's (the static /admin page and its bundle, under
 * the live site's headers and CSP), served by helpers/prod-server.ts: the API is stubbed anyway,
 * and the built bundle loads in a fraction of the dev server's hundreds of module requests.
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

async function openAdmin(opts: MockOptions, viewport: ViewportName = 'desktop') {
  const page = await browser.newPage(viewport);
  const api = await mockAdminApi(page, opts);
  await page.goto('/admin');
  return { page, api };
}

/** Waits for a toast with this title (and description, when given). */
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

async function signIn(page: Page, username: string, password = `${username}-dev-password`) {
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const dashboardHeading = (page: Page) => page.getByRole('tablist', { name: 'Dashboard sections' });

describe('admin sign-in (stubbed API)', () => {
  it('shows the login form, with no Register link, and it has no axe violations', async () => {
    const { page } = await openAdmin({ role: null });
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByText('Register here').count()).toBe(0);
    expect(await page.locator('h1').allInnerTexts()).toEqual(['Campaign Dashboard']);
    const password = page.getByLabel('Password', { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('requires both fields, then reports failures and rate limits', async () => {
    const { page, api } = await openAdmin({ role: null });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Please fill in all fields');
    expect(api.calls.some((c) => c.path === '/api/auth/login')).toBe(false);

    await signIn(page, 'admin', 'wrong-password');
    // The toast reads the server's message; the thrown error keeps spec section 8's "<status>: <body text>"
    // (tests/unit/api-errors.test.ts).
    await expectToast(page, 'Login failed', 'Invalid credentials');

    api.override(
      'POST /api/auth/login',
      429,
      { error: 'Too many login attempts. Please try again in 15 minutes.' },
      { 'Retry-After': '900' },
    );
    await signIn(page, 'admin');
    await expectToast(page, 'Login failed', 'Too many login attempts. Please try again in 15 minutes.');
    expect(await dashboardHeading(page).count()).toBe(0);
    await page.close();
  });

  it('signs in: welcome toast, current user refetched, page title set', async () => {
    const { page, api } = await openAdmin({ role: null });
    await signIn(page, 'admin');
    await expectToast(page, 'Welcome back!', 'Successfully logged in.');
    await dashboardHeading(page).waitFor();
    const order = api.calls.map((c) => `${c.method} ${c.path}`).filter((c) => c.includes('/api/auth/'));
    expect(order).toEqual(['GET /api/auth/me', 'POST /api/auth/login', 'GET /api/auth/me']);
    expect(await page.title()).toMatch(/^Admin Dashboard/);
    expect(await page.locator('h1').allInnerTexts()).toEqual(['Campaign Dashboard']);
    expect(await page.getByText('Welcome back, Ada').isVisible()).toBe(true);
    await page.close();
  });

  it('forgot mode: email required, success and failure messages, Back to Login', async () => {
    const { page, api } = await openAdmin({ role: null });
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('button', { name: 'Send Temporary Password' }).click();
    await expectToast(page, 'Please enter your email address');

    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByRole('button', { name: 'Send Temporary Password' }).click();
    await expectToast(
      page,
      'Temporary Password Sent',
      'If an account with that email exists, a temporary password has been sent.',
    );
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(api.calls.find((c) => c.path === '/api/auth/forgot-password')?.body).toEqual({
      email: 'admin@example.com',
    });

    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    api.override('POST /api/auth/forgot-password', 429, {
      success: false,
      error: 'Too many requests. Please try again later.',
    });
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByRole('button', { name: 'Send Temporary Password' }).click();
    await expectToast(page, 'Error', 'Too many requests. Please try again later.');

    await page.route('**/api/auth/forgot-password', (route) => route.abort());
    await page.getByRole('button', { name: 'Send Temporary Password' }).click();
    await expectToast(page, 'Error', 'Failed to send temporary password');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.close();
  });

  it('a temporary-password user must change the password before anything else', async () => {
    const { page, api } = await openAdmin({ role: 'editor', mustChangePassword: true });
    await page.getByRole('heading', { name: 'Change Your Password' }).waitFor();
    expect(await dashboardHeading(page).count()).toBe(0);
    await expectNoAxeViolations(page);
    await page.getByLabel('Current or temporary password').fill('Temp-123');
    await page.getByLabel('New password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm new password').fill('abc');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expectToast(page, 'Password must be at least 6 characters');
    await page.getByLabel('New password', { exact: true }).fill('new-password-1');
    await page.getByLabel('Confirm new password').fill('new-password-2');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expectToast(page, 'Passwords do not match');
    await page.getByLabel('Confirm new password').fill('new-password-1');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await dashboardHeading(page).waitFor();
    expect(api.calls.find((c) => c.path === '/api/auth/change-password')?.body).toEqual({
      currentPassword: 'Temp-123',
      newPassword: 'new-password-1',
    });
    await page.close();
  });

  it('a 403 with mustChangePassword from any call switches to the change-password form', async () => {
    const page = await browser.newPage();
    const api = await mockAdminApi(page, { role: 'admin' });
    await page.route('**/api/admin/news?*', (route) =>
      route.fulfill({
        status: 403,
        json: { error: 'You must change your password first', mustChangePassword: true },
      }),
    );
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Change Your Password' }).waitFor();
    expect(api.calls.length).toBeGreaterThan(0);
    await page.close();
  });

  it('logout clears the user and the cached data; the back button shows no data', async () => {
    const { page, api } = await openAdmin({ role: 'admin' });
    await page.getByRole('heading', { name: 'Article 1', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectToast(page, 'Logged out successfully');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByText('Article 1').count()).toBe(0);
    await page.goto('/about');
    await page.goBack();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByText('Article 1').count()).toBe(0);

    // A failed logout clears just the same, silently.
    await signIn(page, 'admin');
    await page.getByRole('heading', { name: 'Article 1', exact: true }).waitFor();
    api.override('POST /api/auth/logout', 500, { error: 'Internal error' });
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByText('Article 1').count()).toBe(0);
    await page.close();
  });
});

describe('admin dashboard (stubbed API)', () => {
  it('tabs follow the ARIA keyboard pattern', async () => {
    const { page } = await openAdmin({ role: 'admin' });
    const blog = page.getByRole('tab', { name: 'Blog Management' });
    await blog.waitFor();
    await blog.focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Events Management' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await page.getByRole('heading', { name: 'Events Management', level: 2 }).waitFor();
    await page.keyboard.press('End');
    expect(await page.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowRight');
    expect(await blog.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    expect(await blog.getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Blog Management');
    await page.close();
  });

  it('every tab fits at 1366 px and at 390 px, and the arrow keys reach each one', async () => {
    for (const size of [
      { width: 1366, height: 768 },
      { width: 390, height: 844 },
    ]) {
      const { page } = await openAdmin({ role: 'admin' }, size.width < 600 ? 'mobile' : 'desktop');
      await page.setViewportSize(size);
      const tabs = page.getByRole('tab');
      await page.getByRole('tab', { name: 'Security' }).waitFor();
      const labels = await tabs.allInnerTexts();
      expect(labels).toContain('Activity');
      expect(labels).toContain('Trash');
      // Each tab is inside the window and nothing covers or clips it (a scrolling bar cut them off on the right).
      const hidden = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[role="tab"]')]
          .filter((tab) => {
            const r = tab.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return r.left < 0 || r.right > window.innerWidth || !hit || !tab.contains(hit);
          })
          .map((tab) => tab.textContent),
      );
      expect(hidden, `${size.width} px`).toEqual([]);
      await tabs.first().focus();
      for (const label of labels.slice(1)) {
        await page.keyboard.press('ArrowRight');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(label);
      }
      await expectNoAxeViolations(page);
      await page.close();
    }
  });

  it('admins see the launch checklist (placeholders of the build and the settings the server lacks); editors do not', async () => {
    const page = await browser.newPage();
    const api = await mockAdminApi(page, { role: 'admin' });
    api.override('GET /api/admin/launch-check', 200, {
      items: [
        {
          key: 'setting:SESSION_SECRET',
          area: 'settings',
          message: 'SESSION_SECRET is not set: at least 32 random bytes.',
        },
        {
          key: 'calendar:election-day',
          area: 'calendar',
          message: "The election calendar's Election Day (Saturday, October 11, 2025) is in the past.",
        },
      ],
    });
    await page.goto('/admin');
    const summary = page.getByText(/^Launch checklist: \d+ things to replace or set before going live$/);
    await summary.waitFor();
    await summary.click();
    await page.getByText(/The carousel video "REPLACE-ME-01" is a placeholder/).waitFor();
    await page.getByText(/placeholder candidate portrait/).waitFor();
    await page.getByText('SESSION_SECRET is not set: at least 32 random bytes.').waitFor();
    // A past election calendar, in its own section (docs/decisions/085-launch-gate.md).
    await page.getByRole('heading', { name: 'Election calendar (the Election tab)' }).waitFor();
    await page.getByText(/Election Day \(Saturday, October 11, 2025\) is in the past/).waitFor();
    await expectNoAxeViolations(page);
    await page.close();
    const editor = await openAdmin({ role: 'editor' });
    await editor.page.getByRole('tab', { name: 'Security' }).waitFor();
    expect(await editor.page.getByText(/^Launch checklist/).count()).toBe(0);
    expect(editor.api.calls.some((c) => c.path === '/api/admin/launch-check')).toBe(false);
    await editor.page.close();
  });

  it('Add Article: focus trap, Escape, focus return, messages, slug normalisation and payload', async () => {
    const { page, api } = await openAdmin({ role: 'admin' });
    const add = page.getByRole('button', { name: 'Add Article' });
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Add Article' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('article-title');
    await expectNoAxeViolations(page);
    // Tab never leaves the dialog.
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(
        true,
      );
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add Article');

    await add.click();
    expect(await dialog.getByLabel('Author').inputValue()).toBe('Jordan Avery');
    await dialog.getByRole('button', { name: 'Create Article' }).click();
    await expectToast(page, 'Missing required fields', 'Please fill in title, slug, content, and author.');
    // Each empty field is marked and named, the first one focused.
    const slug = dialog.getByLabel('Slug');
    expect(await slug.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.locator('#article-slug-error').innerText()).toMatch(/^Enter a slug/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('article-title');
    // Axe once the toast has finished fading in (mid-fade its text is paler than it ends).
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await expectNoAxeViolations(page);
    // The slug follows the title, clean, until it is edited by hand.
    await dialog.getByLabel('Title', { exact: true }).fill('Our Budget Plan!  2027 ');
    expect(await slug.inputValue()).toBe('our-budget-plan-2027');
    await dialog.getByLabel('Title', { exact: true }).fill('Our Budget Plan');
    expect(await slug.inputValue()).toBe('our-budget-plan');
    await slug.fill('');
    await slug.pressSequentially('Our Budget Plan!');
    expect(await slug.inputValue()).toBe('our-budget-plan-');
    await dialog.getByLabel('Title', { exact: true }).fill('Our Budget Plan');
    expect(await slug.inputValue()).toBe('our-budget-plan-');
    await dialog.getByLabel('Content').fill('<p>Line by line.</p>');
    await dialog.getByLabel('Published').check();
    await dialog.getByRole('button', { name: 'Create Article' }).click();
    await expectToast(page, 'Article created successfully!');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Our Budget Plan' }).waitFor();
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/admin/news');
    expect(post?.body).toMatchObject({
      title: 'Our Budget Plan',
      slug: 'our-budget-plan-',
      author: 'Jordan Avery',
      isPublished: true,
    });
    await page.close();
  });

  it('after the results date with no outcome set, admins are asked to set it, and the button opens Election', async () => {
    // The calendar is answered before the dashboard asks for it: the seeded 2025 primary, no outcome set.
    const page = await browser.newPage('desktop');
    const api = await mockAdminApi(page, { role: 'admin' });
    const stored = { calendar: defaultElectionCalendar, isDefault: true, updatedAt: null, updatedBy: null };
    for (let i = 0; i < 3; i++) api.override('GET /api/admin/election', 200, stored);
    await page.goto('/admin');
    await dashboardHeading(page).waitFor();
    const prompt = page.getByRole('region', {
      name: 'Set the outcome of the election of Saturday, October 11, 2025',
    });
    await prompt.waitFor();
    expect(await prompt.innerText()).toMatch(/makes no claim either way/);
    await expectNoAxeViolations(page);
    await prompt.getByRole('button', { name: 'Set the outcome' }).click();
    expect(await page.getByRole('tab', { name: 'Election' }).getAttribute('aria-selected')).toBe('true');
    await page.close();
  });

  it('editors are not asked for the outcome (the Election tab is for admins)', async () => {
    const page = await browser.newPage('desktop');
    const api = await mockAdminApi(page, { role: 'editor' });
    api.override('GET /api/admin/election', 200, { calendar: defaultElectionCalendar, isDefault: true });
    await page.goto('/admin');
    await dashboardHeading(page).waitFor();
    await page.getByRole('tab', { name: 'Blog Management' }).waitFor();
    expect(await page.getByRole('region', { name: /Set the outcome/ }).count()).toBe(0);
    await page.close();
  });

  it('unsaved article: Escape and a click outside ask first; a draft survives a reload and is offered back', async () => {
    const { page } = await openAdmin({ role: 'editor' });
    const add = page.getByRole('button', { name: 'Add Article' });
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Add Article' });
    await dialog.getByLabel('Title', { exact: true }).fill('Town hall recap, District B');
    await dialog.getByRole('textbox', { name: 'Content (required)' }).click();
    await page.keyboard.type('We heard from forty neighbours about drainage.');
    const ask = page.getByRole('alertdialog', { name: 'Discard your changes?' });
    // Escape asks, and the safe answer (which has focus) keeps everything typed.
    await page.keyboard.press('Escape');
    await ask.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep editing');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    expect(await dialog.getByLabel('Title', { exact: true }).inputValue()).toBe(
      'Town hall recap, District B',
    );
    // A click on the page behind the dialog asks too.
    await page.mouse.click(5, 5);
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await dialog.isVisible()).toBe(true);

    // A reload (or a closed dialog, an expired session) keeps the draft in this tab: the next opening offers it.
    // The draft is written half a second after the last change.
    await expect
      .poll(() =>
        page.evaluate(() => Object.keys(sessionStorage).some((k) => k.startsWith('campaign.admin.draft.'))),
      )
      .toBe(true);
    await page.reload();
    await add.click();
    const notice = dialog.locator('[data-draft-notice]');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(/You have unsaved changes to this form from/);
    await expectNoAxeViolations(page);
    await notice.getByRole('button', { name: 'Restore my changes' }).click();
    expect(await dialog.getByLabel('Title', { exact: true }).inputValue()).toBe(
      'Town hall recap, District B',
    );
    expect(await dialog.getByLabel('Slug').inputValue()).toBe('town-hall-recap-district-b');
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Content (required)' }).innerText())
      .toBe('We heard from forty neighbours about drainage.');

    // Discarding for real: Cancel asks, "Discard changes" closes, and the draft is gone.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await add.click();
    await dialog.getByLabel('Title', { exact: true }).waitFor();
    expect(await dialog.locator('[data-draft-notice]').count()).toBe(0);
    expect(await dialog.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    // An untouched form still closes on Escape at once.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.close();
  });

  it('article errors: 401 on create, 409 on update keeps the form open, failed upload alert', async () => {
    const { page, api } = await openAdmin({ role: 'editor' });
    await page.getByRole('button', { name: 'Edit Article 1' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Article' });
    api.override('PUT /api/admin/news/1', 409, { error: 'This article was changed by someone else.' });
    await edit.getByLabel('Title', { exact: true }).fill('Article 1 (edited)');
    await edit.getByRole('button', { name: 'Update Article' }).click();
    await expectToast(page, 'Failed to update article');
    expect(await edit.isVisible()).toBe(true);
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ expectedUpdatedAt: '2025-09-01T12:00:00.000Z' });

    api.override('POST /api/upload', 400, { success: false, error: 'Unsupported file type' });
    await edit
      .getByLabel('Upload image')
      .setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await edit.getByRole('alert').filter({ hasText: 'Image upload failed. Please try again.' }).waitFor();
    expect(await edit.getByText('Recommended size: 1200x630').isVisible()).toBe(true);

    await edit.getByRole('button', { name: 'Update Article' }).click();
    await expectToast(page, 'Article updated successfully!');
    await edit.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Add Article' }).click();
    const add = page.getByRole('dialog', { name: 'Add Article' });
    await add.getByLabel('Title', { exact: true }).fill('T');
    await add.getByLabel('Slug').fill('t');
    await add.getByLabel('Content').fill('c');
    api.override('POST /api/admin/news', 400, { error: 'Slug already in use' });
    await add.getByRole('button', { name: 'Create Article' }).click();
    await expectToast(page, 'Failed to create article', 'Slug already in use');
    api.override('POST /api/admin/news', 401, { error: 'Unauthorized' });
    await add.getByRole('button', { name: 'Create Article' }).click();
    await expectToast(page, 'Authentication required', 'Please log in again to continue.');
    await page.close();
  });

  it('delete article without confirmation; paging through 45 articles', async () => {
    const { page } = await openAdmin({ role: 'admin', articles: 45 });
    await page.getByText('Page 1 of 3').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Article 21', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete Article 21' }).click();
    await expectToast(page, 'Article deleted successfully!');
    await page.getByRole('heading', { name: 'Article 21', exact: true }).waitFor({ state: 'detached' });
    await page.close();
  });

  it('Add Event: defaults, unlimited attendees, toasts; modal has no axe violations', async () => {
    const { page, api } = await openAdmin({ role: 'admin' });
    await page.getByRole('tab', { name: 'Events Management' }).click();
    await page.getByText('Unlimited').waitFor();
    await page.getByRole('button', { name: 'Add Event' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Event' });
    expect(await dialog.getByLabel('Contact email').inputValue()).toBe(IDENTITY.emails.events);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await expectToast(page, 'Failed to create event');
    await dialog.getByLabel('Title', { exact: true }).fill('Canvass Kickoff');
    await dialog.getByLabel('Location').fill('Campaign HQ');
    await dialog.getByLabel('Date').fill('2030-09-20');
    await dialog.getByLabel('Start time').fill('09:00');
    await dialog.getByLabel('Event type').selectOption('rally');
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await expectToast(page, 'Event created successfully!');
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/admin/events');
    expect(post?.body).toMatchObject({
      maxAttendees: null,
      contactEmail: IDENTITY.emails.events,
      eventType: 'rally',
      isPublic: true,
    });
    await page.getByRole('button', { name: 'Edit Canvass Kickoff' }).click();
    await page.getByRole('dialog', { name: 'Edit Event' }).getByLabel('Max attendees').fill('150');
    await page.getByRole('button', { name: 'Update Event' }).click();
    await expectToast(page, 'Event updated successfully!');
    await page.getByRole('button', { name: 'Delete Canvass Kickoff' }).click();
    await expectToast(page, 'Event deleted successfully!');
    await page.close();
  });

  it('Social: X (Twitter) card, display order falls back to 1', async () => {
    const { page, api } = await openAdmin({ role: 'editor' });
    await page.getByRole('tab', { name: 'Social Media' }).click();
    await page.getByRole('heading', { name: 'X (Twitter)' }).waitFor();
    expect(await page.getByRole('button', { name: /^Add/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit X (Twitter)' }).click();
    const dialog = page.getByRole('dialog');
    await expectNoAxeViolations(page);
    await dialog.getByLabel('Display order').fill('');
    await dialog.getByRole('button', { name: 'Update Link' }).click();
    await expectToast(page, 'Social media link updated successfully!');
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ displayOrder: 1 });
    await page.close();
  });

  it('Users: table, blank password left out, accessible delete confirmation', async () => {
    const { page, api } = await openAdmin({ role: 'admin' });
    await page.getByRole('tab', { name: 'User Management' }).click();
    await page.getByRole('cell', { name: 'viewer@example.com' }).waitFor();
    const headers = await page.locator('table thead th').allInnerTexts();
    expect(headers).toEqual(['User', 'Email', 'Role', 'Status', 'Last Login', 'Created', 'Actions']);
    expect(await page.getByRole('cell', { name: 'Never' }).count()).toBe(2);

    await page.getByRole('button', { name: 'Add User' }).click();
    await expectNoAxeViolations(page);
    const add = page.getByRole('dialog', { name: 'Add User' });
    await add.getByLabel('Username').fill('newstaff');
    await add.getByLabel('Email').fill('newstaff@example.com');
    await add.getByLabel('Password', { exact: true }).fill('secret-1');
    await add.getByLabel('Role').selectOption('editor');
    await add.getByRole('button', { name: 'Create User' }).click();
    await expectToast(page, 'User created successfully!');

    await page.getByRole('button', { name: 'Edit editor' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByLabel('First name').fill('Eddie');
    await edit.getByRole('button', { name: 'Update User' }).click();
    await expectToast(page, 'User updated successfully!');
    const put = api.calls.find((c) => c.method === 'PUT' && c.path === '/api/admin/users/2');
    expect(put?.body).not.toHaveProperty('password');

    api.override('PUT /api/admin/users/3', 400, { error: 'Email already in use' });
    await page.getByRole('button', { name: 'Edit viewer' }).click();
    await page.getByRole('button', { name: 'Update User' }).click();
    await expectToast(page, 'Failed to update user', 'Email already in use');
    await page.keyboard.press('Escape');

    const del = page.getByRole('button', { name: 'Delete viewer' });
    await del.click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.innerText()).toContain(
      'Are you sure you want to delete this user? This action cannot be undone.',
    );
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete viewer');
    await del.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'User deleted successfully!');
    await page.close();
  });

  it('Progress: metric, goal and milestone modals with integer fallbacks', async () => {
    const { page, api } = await openAdmin({ role: 'editor' });
    await page.getByRole('tab', { name: 'Campaign Progress' }).click();
    await page.getByRole('button', { name: 'Edit Doors knocked' }).click();
    await expectNoAxeViolations(page);
    await page.getByLabel('Current value').fill('');
    await page.getByRole('button', { name: 'Update Metric' }).click();
    await expectToast(page, 'Metric updated successfully!');
    expect(api.calls.find((c) => c.path === '/api/admin/metrics/1')?.body).toMatchObject({
      currentValue: 0,
      targetValue: 5000,
    });

    await page.getByRole('button', { name: 'Edit New recruits' }).click();
    await expectNoAxeViolations(page);
    await page.getByLabel('Current count').fill('12');
    await page.getByRole('button', { name: 'Update Goal' }).click();
    await expectToast(page, 'Goal updated successfully!');

    await page.getByRole('button', { name: 'Edit Supporters' }).click();
    await expectNoAxeViolations(page);
    api.override('PUT /api/admin/milestones/1', 500, { error: 'Internal error' });
    await page.getByRole('button', { name: 'Update Milestone' }).click();
    await expectToast(page, 'Failed to update milestone');
    await page.getByRole('button', { name: 'Update Milestone' }).click();
    await expectToast(page, 'Milestone updated successfully!');
    expect(api.calls.filter((c) => c.path === '/api/admin/milestones/1').at(-1)?.body).toMatchObject({
      targetCount: null,
    });
    await page.close();
  });

  it('Inbox: filter, CSV export of what is shown, consent status', async () => {
    const { page, api } = await openAdmin({ role: 'admin' });
    await page.getByRole('tab', { name: 'Inbox' }).click();
    await page.getByRole('cell', { name: 'Vol1 Lee' }).waitFor();
    await page.getByLabel('Search').fill('v2@');
    await page.getByRole('cell', { name: 'Vol1 Lee' }).waitFor({ state: 'detached' });
    expect(api.calls.some((c) => c.path === '/api/admin/volunteers')).toBe(true);
    // One match is "1 volunteer sign-up"; a search that matches nothing says so, not "Nothing here yet."
    await page.getByText('1 volunteer sign-up', { exact: true }).waitFor();
    await page.getByLabel('Search').fill('nobody-matches-this');
    await page.getByText('No matches for this search and these filters.').waitFor();
    expect(await page.getByText('Nothing here yet.').count()).toBe(0);
    await page.getByLabel('Search').fill('v2@');
    await page.getByText('1 volunteer sign-up', { exact: true }).waitFor();
    // Export CSV exports the list as searched (docs/decisions/156-exports.md): a small one comes back
    // done, with its signed download link.
    const url = '/api/admin/exports/abc/download?sig=x';
    api.override('POST /api/admin/exports', 201, {
      job: {
        id: 'abc',
        status: 'done',
        filename: 'volunteers.csv',
        rows: 1,
        total: 1,
        createdAt: new Date().toISOString(),
        error: null,
        downloads: [{ url, filename: 'volunteers.csv', rows: 1, bytes: 120 }],
        linksExpireAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    await page.getByRole('button', { name: /Export CSV/ }).click();
    const link = page.getByRole('link', { name: /Download volunteers\.csv/ });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(url);
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/api/admin/exports')?.body).toMatchObject(
      {
        source: 'inbox',
        params: { kind: 'volunteers', q: 'v2@' },
      },
    );
    await page.getByLabel('Show').selectOption('text-signups');
    // The volunteers' file does not stay offered beside another list.
    await link.waitFor({ state: 'detached' });
    await page.getByLabel('Search').fill('');
    await page.getByRole('table').getByText('Opted out').waitFor();
    expect(await page.getByRole('table').getByText('Subscribed', { exact: true }).count()).toBe(1);
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('Inbox: who left shows as having left, with the date, and the Status filter lists only them', async () => {
    const { page, api } = await openAdmin({ role: 'admin' });
    await page.getByRole('tab', { name: 'Inbox' }).click();
    const left = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Vol2 Lee' }) });
    await left.getByText('Unsubscribed', { exact: true }).waitFor();
    const stays = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Vol1 Lee' }) });
    expect(await stays.getByText('Subscribed', { exact: true }).count()).toBe(1);
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Unsubscribed' });
    // Between the two lists the table may be empty for a moment: wait for what a person sees at the end.
    await expect.poll(() => page.getByRole('cell', { name: 'Vol1 Lee' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('cell', { name: 'Vol2 Lee' }).count()).toBe(1);
    expect(api.calls.some((c) => c.path === '/api/admin/volunteers' && c.method === 'GET')).toBe(true);
    api.override('POST /api/admin/exports', 201, {
      job: {
        id: 'left',
        status: 'done',
        filename: 'volunteers.csv',
        rows: 1,
        total: 1,
        createdAt: new Date().toISOString(),
        error: null,
        downloads: [
          { url: '/api/admin/exports/left/download?sig=x', filename: 'volunteers.csv', rows: 1, bytes: 90 },
        ],
        linksExpireAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    await page.getByRole('button', { name: /Export CSV/ }).click();
    await page.getByRole('link', { name: /Download volunteers\.csv/ }).waitFor();
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/api/admin/exports')?.body).toMatchObject(
      {
        source: 'inbox',
        params: { kind: 'volunteers', status: 'unsubscribed' },
      },
    );
    // Contact messages keep no status: no Status filter there.
    await page.getByLabel('Show').selectOption('contacts');
    await page.getByRole('cell', { name: 'Contact 1', exact: true }).waitFor();
    expect(await page.getByLabel('Status', { exact: true }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await page.close();
  });
});

describe('Inbox: long messages (stubbed API)', () => {
  it('a long message shows three lines and expands by keyboard to the whole text, at 1366 and 390 px', async () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const { page } = await openAdmin({ role: 'admin' }, viewport);
      if (viewport === 'desktop') await page.setViewportSize({ width: 1366, height: 768 });
      await page.getByRole('tab', { name: 'Inbox' }).click();
      await page.getByLabel('Show').selectOption('contacts');
      const toggle = page.getByRole('button', { name: 'Show the full message' });
      await toggle.waitFor();
      // Only the long message has one ("Hello" fits).
      expect(await toggle.count()).toBe(1);
      const last = page.getByText(/Thank you, Contact 1\./);
      const clipped = await last.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
      expect(clipped).toBe(true);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.focus();
      await page.keyboard.press('Enter');
      const less = page.getByRole('button', { name: 'Show less' });
      expect(await less.getAttribute('aria-expanded')).toBe('true');
      expect(await last.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
      await expectNoAxeViolations(page);
      await page.keyboard.press('Enter');
      await toggle.waitFor();
      await page.close();
    }
  });
});

describe('admin roles (stubbed API)', () => {
  it('editor: no User Management tab', async () => {
    const { page } = await openAdmin({ role: 'editor' });
    await dashboardHeading(page).waitFor();
    const tabs = await page.getByRole('tab').allInnerTexts();
    expect(tabs).toEqual([
      'Blog Management',
      'Events Management',
      'Social Media',
      'Overview',
      'Campaign Progress',
      'Inbox',
      'People',
      'Plans to vote',
      'Broadcasts',
      'Donations',
      'Outreach Links',
      'Trash',
      'Security',
    ]);
    await page.close();
  });

  it('viewer: everything read-only, no Inbox', async () => {
    const { page } = await openAdmin({ role: 'viewer' });
    await page.getByRole('heading', { name: 'Article 1', exact: true }).waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual([
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
    for (const tab of ['Blog Management', 'Events Management', 'Social Media', 'Campaign Progress']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.locator('[role="tabpanel"] h3').first().waitFor();
      expect(
        await page
          .getByRole('tabpanel')
          .getByRole('button', { name: /^(Add|Edit|Delete)/ })
          .count(),
      ).toBe(0);
    }
    expect(await page.getByText('Viewer', { exact: true }).isVisible()).toBe(true);
    await page.close();
  });

  it('dashboard at 390 px has no axe violations', async () => {
    const { page } = await openAdmin({ role: 'admin' }, 'mobile');
    await page.getByRole('heading', { name: 'Article 1', exact: true }).waitFor();
    await expectNoAxeViolations(page);
    await page.close();
  });
});

describe('admin with large lists (stubbed API)', () => {
  it('pages 500 articles and 2,000 sign-ups from the server and keeps one page in the DOM', async () => {
    const { page } = await openAdmin({ role: 'admin', articles: 500, inbox: 2000 });
    await page.getByRole('heading', { name: 'Article 1', exact: true }).waitFor();
    const time = async (action: () => Promise<void>) => {
      const start = performance.now();
      await action();
      return Math.round(performance.now() - start);
    };
    const nextPage = await time(async () => {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Article 21', exact: true }).waitFor();
    });
    const openModal = await time(async () => {
      await page.getByRole('button', { name: 'Edit Article 21' }).click();
      await page.getByRole('dialog').waitFor();
    });
    await page.keyboard.press('Escape');
    const inboxTab = await time(async () => {
      await page.getByRole('tab', { name: 'Inbox' }).click();
      await page.getByRole('cell', { name: 'Vol1 Lee' }).waitFor();
    });
    const filter = await time(async () => {
      await page.getByLabel('Search').fill('v1999@');
      await page.getByRole('cell', { name: 'Vol1999 Lee' }).waitFor();
    });
    const rows = await page.locator('tbody tr').count();
    console.log(
      `admin with 500 articles / 2,000 sign-ups: next page ${nextPage} ms, open modal ${openModal} ms, inbox tab ${inboxTab} ms, filter ${filter} ms (incl. 300 ms debounce)`,
    );
    // Times are logged for docs/benchmarks.md, never asserted (timed tests flake on a shared machine);
    // what is asserted is the structure that keeps them flat: the server pages, the DOM holds one page.
    expect(rows).toBe(1);
    // Only one page of rows is ever in the DOM.
    await page.getByLabel('Search').fill('');
    await page.getByText('Page 1 of 40').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(50);
    await page.close();
  });
});
