import { describe, expect, it } from 'vitest';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import type { ElectionCalendar } from '../../src/lib/election-stage';
import { ELECTION_MESSAGES } from '../../src/lib/schemas/election';
import { expectNoAxeViolations } from './helpers/axe';
import { apiAs, dashboardBrowser, expectToast, login, openDashboard } from './helpers/staff';

/*
 * Starting the next election from the Election tab (docs/decisions/157-election-calendar.md, "Starting the
 * next election"), on the production build with the dev server's API: the seeded October 2025 election stored (over,
 * no outcome), the dashboard asks for the outcome; the admin gives the next Election Day, reads a confirmation that
 * names the election left behind and the new dates, confirms; the calendar is moved and the prompt goes. The
 * calendar is put back afterwards: the other files' site keeps its election (global-setup.ts).
 */

const browser = dashboardBrowser();
const NEXT = '2099-11-07';

describe('Start the next election', () => {
  it('asks for a date after today, confirms what the site will say, then moves the calendar and the prompt goes', async () => {
    const admin = await login('admin');
    const stored = async () =>
      ((await apiAs(admin.cookie, 'GET', '/api/admin/election')).json as { calendar: ElectionCalendar })
        .calendar;
    const before = await stored();
    expect((await apiAs(admin.cookie, 'PUT', '/api/admin/election', defaultElectionCalendar)).status).toBe(
      200,
    );
    const page = await openDashboard(browser, 'admin');
    try {
      const prompt = page.getByRole('region', { name: /^Set the outcome of the election of/ });
      await prompt.waitFor();
      expect(await prompt.innerText()).toMatch(/Start the next election/);
      await prompt.getByRole('button', { name: 'Set the outcome' }).click();
      const form = page.getByRole('form', { name: 'Start the next election' });
      await form.waitFor();
      expect(await form.innerText()).toMatch(/The election of Saturday, October 11, 2025 is over/);
      const day = form.getByLabel('Next Election Day');

      // A past date is refused on the field, and nothing is asked or sent.
      await day.fill('2025-12-06');
      await form.getByRole('button', { name: 'Start the next election' }).click();
      expect(await day.getAttribute('aria-invalid')).toBe('true');
      expect(await form.innerText()).toContain(ELECTION_MESSAGES.nextAfterToday);
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      await expectNoAxeViolations(page);

      // A coming date: the confirmation says what the site stops saying and where the dates go.
      await day.fill(NEXT);
      await form.getByRole('button', { name: 'Start the next election' }).click();
      const dialog = page.getByRole('alertdialog', {
        name: 'Start the election of Saturday, November 7, 2099?',
      });
      await dialog.waitFor();
      const said = await dialog.innerText();
      expect(said).toContain('stops saying the election of Saturday, October 11, 2025 was held');
      expect(said).toContain('campaigns for the election of Saturday, November 7, 2099');
      expect(said).toMatch(/registration closes \w+day, October \d+, 2099/);
      expect(said).toContain('the outcome and the runoff are cleared');
      await expectNoAxeViolations(page);
      // Cancel sends nothing.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await stored()).primary.electionDay.date).toBe('2025-10-11');

      await form.getByRole('button', { name: 'Start the next election' }).click();
      await dialog.getByRole('button', { name: 'Start the next election' }).click();
      await expectToast(page, 'The next election is started');
      const after = await stored();
      expect(after).toMatchObject({ mode: 'none', runoff: null, primary: { electionDay: { date: NEXT } } });
      // The form below shows the new dates, the section and the prompt are gone: the election is ahead.
      expect(await page.getByLabel('Election Day: date').inputValue()).toBe(NEXT);
      await expect.poll(() => form.count()).toBe(0);
      expect(await page.getByRole('region', { name: /^Set the outcome/ }).count()).toBe(0);
      // A toast on its way out is not what a person reads: axe runs once it has gone.
      await expect.poll(() => page.locator('[data-sonner-toast][data-removed="true"]').count()).toBe(0);
      await expectNoAxeViolations(page);
    } finally {
      expect((await apiAs(admin.cookie, 'PUT', '/api/admin/election', before)).status).toBe(200);
      await page.close();
    }
  });
});
