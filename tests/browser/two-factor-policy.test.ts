import { describe, expect, it } from 'vitest';
import { totpCode } from '../../src/lib/server/auth/totp.ts';
import { expectNoAxeViolations } from './helpers/axe';
import {
  apiAs,
  cookieOf,
  createStaff,
  dashboardBrowser,
  expectToast,
  login,
  signInPage,
} from './helpers/staff';

/*
 * The admins-must-enrol policy, end to end against the dev server. The policy is
 * site-wide: while it is on, every un-enrolled admin (the seeded dev admin that
 * other test files sign in as, too) is sent to enrolment. So this file runs on
 * its own, before every other file (the `browser-alone` project in vitest.config.ts), and turns it off again.
 */

const browser = dashboardBrowser();

const run = Date.now().toString(36);

describe('two-factor policy', () => {
  it('an admin who requires two-factor for admins sends an un-enrolled admin to enrolment', async () => {
    const boss = await createStaff('admin', `boss-${run}`);
    const other = await createStaff('admin', `other-${run}`);
    // The boss enrols through the API (the UI flow is in staff-publishing.test.ts).
    const bossSession = await login(boss.username, boss.password);
    const setup = await apiAs(bossSession.cookie, 'POST', '/api/auth/two-factor/setup');
    const secret = setup.json!.secret as string;
    const enabled = await apiAs(bossSession.cookie, 'POST', '/api/auth/two-factor/enable', {
      password: boss.password,
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
      // Turning it on needs the current password too (docs/decisions/160-staff-sign-in-and-sessions.md).
      await blocked.getByLabel('Current password').fill(other.password);
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
