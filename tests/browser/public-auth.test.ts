import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe.ts';
import { launchBrowser, type BrowserSession } from './helpers/browser.ts';
import { hydrated, json, toast } from './helpers/public.ts';

let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const NOTE =
  'If an account with that email exists, a temporary password has been sent to your email address. Please check your inbox and log in with the temporary password.';

describe('forgot password', () => {
  it('validates the email, shows the busy label and the sent view (real endpoint)', async () => {
    const page = await browser.newPage();
    await page.goto('/forgot-password');
    await hydrated(page, 'ForgotPasswordForm');
    const form = page.locator('#forgot-password-form');
    expect(await form.textContent()).toContain('24 hours');
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByRole('button', { name: 'Send Temporary Password' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please enter a valid email address' }).waitFor();
    await expectNoAxeViolations(page);
    await form.getByLabel('Email').fill('nobody@example.org');
    await form.getByRole('button', { name: 'Send Temporary Password' }).click();
    await form.getByRole('heading', { name: 'Email Sent!' }).waitFor({ timeout: 20_000 });
    expect(await form.textContent()).toContain(NOTE);
    expect(await form.getByRole('link', { name: 'Return to Login' }).getAttribute('href')).toBe('/admin');
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('shows the busy label, server errors and the exception message', async () => {
    const page = await browser.newPage();
    await page.route('**/api/auth/forgot-password', (r) =>
      json(r, 429, { success: false, error: 'Too many requests. Try again later.' }, 400),
    );
    await page.goto('/forgot-password');
    await hydrated(page, 'ForgotPasswordForm');
    const form = page.locator('#forgot-password-form');
    await form.getByLabel('Email').fill('a@example.org');
    await form.getByRole('button', { name: 'Send Temporary Password' }).click();
    expect(await form.getByRole('button', { name: 'Sending...' }).isDisabled()).toBe(true);
    await form.getByRole('alert').filter({ hasText: 'Too many requests. Try again later.' }).waitFor();
    await page.unroute('**/api/auth/forgot-password');
    await page.route('**/api/auth/forgot-password', (r) => json(r, 500, {}));
    await form.getByRole('button', { name: 'Send Temporary Password' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: /^Failed to send password reset email$/ })
      .waitFor();
    await page.unroute('**/api/auth/forgot-password');
    await page.route('**/api/auth/forgot-password', (r) => r.abort('failed'));
    await form.getByRole('button', { name: 'Send Temporary Password' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: 'Failed to send password reset email. Please try again.' })
      .waitFor();
    await expectNoAxeViolations(page);
    await page.close();
  });
});

describe('reset password', () => {
  it('without a token: toast and redirect to /admin', async () => {
    const page = await browser.newPage();
    await page.goto('/reset-password');
    await expect.poll(() => toast(page).textContent(), { timeout: 20_000 }).toContain('Invalid Reset Link');
    expect(await toast(page).textContent()).toContain(
      'This password reset link is invalid. Please request a new one.',
    );
    await page.waitForURL('**/admin', { timeout: 10_000 });
    await page.close();
  });

  it('checks in order, shows toggles, busy state, failure and success', async () => {
    const page = await browser.newPage();
    await page.goto('/reset-password?token=abc123');
    await hydrated(page, 'ResetPasswordForm');
    await expect.poll(() => new URL(page.url()).search).toBe(''); // token removed from the address bar
    const form = page.locator('#reset-password-form');
    const submit = form.getByRole('button', { name: 'Reset Password' });
    await submit.click();
    await expect.poll(() => toast(page).textContent()).toContain('Please fill in all fields');
    await form.getByLabel('New Password', { exact: true }).fill('abc');
    await form.getByLabel('Confirm New Password', { exact: true }).fill('abc');
    await submit.click();
    await expect.poll(() => toast(page).textContent()).toContain('Password must be at least 6 characters');
    await form.getByLabel('New Password', { exact: true }).fill('abcdef');
    await form.getByLabel('Confirm New Password', { exact: true }).fill('abcdeg');
    await submit.click();
    await expect.poll(() => toast(page).textContent()).toContain('Passwords do not match');
    const toggle = form.getByRole('button', { name: 'Show new password' });
    await toggle.click();
    expect(await form.getByLabel('New Password', { exact: true }).getAttribute('type')).toBe('text');
    await expectNoAxeViolations(page);

    await form.getByLabel('Confirm New Password', { exact: true }).fill('abcdef');
    await page.route('**/api/auth/reset-password', (r) =>
      json(r, 400, { success: false, error: 'This reset link has expired.' }, 400),
    );
    await submit.click();
    expect(await form.getByRole('button', { name: 'Resetting Password...' }).isDisabled()).toBe(true);
    await expect.poll(() => toast(page).textContent()).toContain('Reset Failed');
    expect(await toast(page).textContent()).toContain('This reset link has expired.');
    await page.unroute('**/api/auth/reset-password');
    await page.route('**/api/auth/reset-password', (r) => r.abort('failed'));
    await submit.click();
    await expect.poll(() => toast(page).textContent()).toContain('Failed to reset password');
    await page.unroute('**/api/auth/reset-password');
    let sent: unknown;
    await page.route('**/api/auth/reset-password', (r) => {
      sent = r.request().postDataJSON();
      return json(r, 200, { success: true });
    });
    await submit.click();
    await expect.poll(() => toast(page).textContent()).toContain('Password Reset Successful');
    expect(await toast(page).textContent()).toContain(
      'Your password has been updated. You can now log in with your new password.',
    );
    expect(sent).toEqual({ token: 'abc123', password: 'abcdef' });
    await page.waitForURL('**/admin', { timeout: 10_000 });
    expect(await page.getByRole('link', { name: 'Back to Login' }).count()).toBeGreaterThanOrEqual(0);
    await page.close();
  });
});
