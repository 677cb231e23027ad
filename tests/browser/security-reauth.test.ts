import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { totpCode } from '../../src/lib/server/auth/totp.ts';
import { expectNoAxeViolations } from './helpers/axe';
import { createStaff, dashboardBrowser, expectToast, openDashboard } from './helpers/staff';

/*
 * The Security tab asks for
 * what the server requires (the current password; a code once two-factor is
 * on), shows the server's message, works from the keyboard, and signs the
 * browser out when too many wrong passwords lock the account.
 * docs/decisions/160-staff-sign-in-and-sessions.md
 */

const browser = dashboardBrowser();
const run = Date.now().toString(36);

/** Types into a field from the keyboard (focus, then key presses), as a keyboard user would. */
async function typeInto(page: Page, label: string, text: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.focus();
  await page.keyboard.type(text);
}

describe('Security: re-authentication', () => {
  it('change password, two-factor on and new recovery codes ask for the password (and the code once on), by keyboard', async () => {
    const { username, password } = await createStaff('editor', `reauth-ui-${run}`);
    const page = await openDashboard(browser, username, password);
    // A laptop screen: the set-up (QR code, key, fields) is taller than the window.
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByRole('tab', { name: 'Security' }).click();

    // Change password, a wrong current password: the server's message, on the field and in a toast.
    await page.getByRole('button', { name: 'Change password' }).focus();
    await page.keyboard.press('Enter');
    const changeForm = page.getByRole('form', { name: 'Change password' });
    await changeForm.waitFor();
    expect(await changeForm.getByLabel('Code from your app, or a recovery code').count()).toBe(0);
    await typeInto(page, 'Current password', 'not my password');
    await typeInto(page, 'New password', 'a-brand-new-password');
    await typeInto(page, 'Confirm new password', 'a-brand-new-password');
    await page.keyboard.press('Enter');
    await expectToast(page, 'Password change failed');
    await changeForm.getByText('Current password is incorrect').waitFor();
    expect(
      await changeForm.getByLabel('Current password', { exact: true }).getAttribute('aria-invalid'),
    ).toBe('true');
    await expectNoAxeViolations(page);
    await changeForm.getByRole('button', { name: 'Cancel' }).click();

    // Two-factor on: the set-up asks for the current password.
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
    await typeInto(page, 'Code from the app', totpCode(secret));
    await page.keyboard.press('Enter');
    await page.getByText('Enter your current password').waitFor();
    await expectNoAxeViolations(page);
    await typeInto(page, 'Current password', password);
    await page.getByLabel('Code from the app').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    // The codes are on screen and their heading has focus, not an empty bottom of the page where the form was.
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: 'Recovery codes' })
          .evaluate(
            (el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().top < innerHeight,
          ),
      )
      .toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save your recovery codes');
    // The status says On at once, above the codes ("Two-factor sign-in is on"), never Off.
    expect(await page.getByText('Status: On').isVisible()).toBe(true);
    expect(await page.getByText('Status: Off').count()).toBe(0);
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await page.getByText('Status: On').waitFor();

    // With two-factor on, a password change asks for a code as well.
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('form', { name: 'Change password' }).waitFor();
    await page.getByLabel('Code from your app, or a recovery code').waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('form', { name: 'Change password' }).getByRole('button', { name: 'Cancel' }).click();

    // New recovery codes: password and a code, by keyboard; ten new codes shown once.
    await page.getByRole('button', { name: 'Get new recovery codes' }).focus();
    await page.keyboard.press('Enter');
    const codesForm = page.getByRole('form', { name: 'Get new recovery codes' });
    await codesForm.waitFor();
    await typeInto(page, 'Current password', password);
    await typeInto(page, 'Code from your app, or a recovery code', totpCode(secret, Date.now() + 30_000));
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    expect(await page.getByRole('list', { name: 'Recovery codes' }).locator('code').count()).toBe(10);
    await page.getByText('Your earlier recovery codes no longer work.').waitFor();
    await expectNoAxeViolations(page);
    await page.close();
  }, 180_000);

  it('too many wrong passwords on "Turn off" sign the browser out, with the server’s message', async () => {
    const { username, password } = await createStaff('editor', `reauth-lock-${run}`);
    const page = await openDashboard(browser, username, password);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await page.getByText('Status: On').waitFor();

    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    const form = page.getByRole('form', { name: 'Turn off two-factor sign-in' });
    await form.getByLabel('Code from your app, or a recovery code').fill('123456');
    // The right password with a wrong code reads exactly like a wrong password.
    await form.getByLabel('Current password').fill(password);
    await form.getByRole('button', { name: 'Turn off' }).click();
    await form.getByText('The current password or the code is incorrect', { exact: false }).first().waitFor();
    await expectNoAxeViolations(page);
    for (let i = 0; i < 4; i++) {
      await form.getByLabel('Current password').fill(`guess ${i}`);
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/auth/two-factor/disable')),
        form.getByRole('button', { name: 'Turn off' }).click(),
      ]);
    }
    await expectToast(page, 'Signed out');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    await expectNoAxeViolations(page);
    await page.close();
  }, 180_000);
});
