import { describe, expect, it } from 'vitest';
import type { ElectionCalendar } from '../../src/lib/election-stage';
import { ELECTION_MESSAGES } from '../../src/lib/schemas/election';
import { expectNoAxeViolations } from './helpers/axe';
import { apiAs, dashboardBrowser, expectToast, login, openDashboard } from './helpers/staff';

/*
 * The Election tab's field-by-field calendar form (docs/decisions/157-election-calendar.md), on the production
 * build with the dev server's API: a day's hours edited, a problem shown on its field (and in the summary, whose link
 * takes the keyboard there), nothing saved until it is mended, then saved through PUT /api/admin/election. The
 * calendar is put back afterwards: the other files' site keeps its election (global-setup.ts).
 */

const browser = dashboardBrowser();

describe('the Election tab', () => {
  it('edits a day’s hours; a closing before the opening is refused on that field, then saved once mended', async () => {
    const admin = await login('admin');
    const stored = async () =>
      ((await apiAs(admin.cookie, 'GET', '/api/admin/election')).json as { calendar: ElectionCalendar })
        .calendar;
    const before = await stored();
    const page = await openDashboard(browser, 'admin');
    try {
      await page.getByRole('tab', { name: 'Election' }).click();
      const opens = page.getByLabel('Day 2: opens at');
      const closes = page.getByLabel('Day 2: closes at');
      expect(await opens.inputValue()).toBe(before.primary.earlyVoting[1]!.open);
      await expectNoAxeViolations(page);

      await opens.fill('19:00');
      await closes.fill('08:00');
      await page.getByRole('button', { name: 'Save calendar' }).click();
      const summary = page.getByRole('alert').filter({ hasText: 'problem to fix before saving' });
      await summary.waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('role')))
        .toBe('alert');
      expect(await closes.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await closes.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`#${describedBy.split(' ').at(-1)}`).innerText()).toBe(
        ELECTION_MESSAGES.hoursOrder,
      );
      expect(await opens.getAttribute('aria-invalid')).toBeNull();
      await expectNoAxeViolations(page);
      // The summary's link takes the keyboard to the field.
      await summary.getByRole('link', { name: ELECTION_MESSAGES.hoursOrder }).focus();
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(
        'election-primary-earlyVoting-1-close',
      );
      // Nothing was sent.
      expect((await stored()).primary.earlyVoting[1]).toEqual(before.primary.earlyVoting[1]);

      // Mended: the message goes as the field is fixed, and the save goes through.
      await opens.fill('09:00');
      await closes.fill('19:30');
      await expect.poll(() => closes.getAttribute('aria-invalid')).toBeNull();
      expect(await summary.count()).toBe(0);
      await page.getByRole('button', { name: 'Save calendar' }).click();
      await expectToast(page, 'Election calendar saved');
      expect((await stored()).primary.earlyVoting[1]).toMatchObject({ open: '09:00', close: '19:30' });
    } finally {
      expect((await apiAs(admin.cookie, 'PUT', '/api/admin/election', before)).status).toBe(200);
      await page.close();
    }
  });
});
