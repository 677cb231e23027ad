import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ElectionCalendar } from '../../src/lib/election-stage';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { expectNoAxeViolations } from './helpers/axe';
import { apiAs, createStaff, dashboardBrowser, login, openDashboard } from './helpers/staff';

/*
 * The office's smaller items, as staff see it on the production build with the dev server's API: an export of one row says
 * "1 row" (docs/decisions/156-exports.md), and the election sites CSV import lists every problem of a refused row,
 * not only the first (docs/decisions/157-election-calendar.md). A refused file changes nothing stored. The email
 * staff get for a contact message says when it came in as the office reads a clock, not a raw UTC timestamp
 * (docs/decisions/167-email-and-newsletter.md), read from the dev server's local outbox as `npm run outbox` prints it.
 */

const browser = dashboardBrowser();
const run = Date.now().toString(36);
let admin: { username: string; password: string };
beforeAll(async () => {
  admin = await createStaff('admin', `i42-staff-${run}`);
});

describe('what staff read (smaller items)', () => {
  it('an export of one contact message offers "1 row"', async () => {
    const email = `one-row-${run}@example.org`;
    const sent = await apiAs(null, 'POST', '/api/contact', {
      name: `One Row ${run}`,
      email,
      phone: '',
      subject: 'general',
      message: 'Export me alone',
      captcha: TURNSTILE_TEST_TOKEN,
    });
    expect(sent.status, sent.text).toBe(201);
    const page = await openDashboard(browser, admin.username, admin.password);
    await page.getByRole('tab', { name: 'Inbox' }).click();
    await page.getByLabel('Show').selectOption('contacts');
    await page.getByLabel('Search').fill(email);
    await page.getByRole('cell', { name: email }).waitFor();
    // The search has reached the list (the shared dev server holds other messages): one row under the header.
    await expect.poll(() => page.getByRole('table').first().getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: /Export CSV/ }).click();
    const link = page.getByRole('link', { name: /^Download contacts-[\d-]+\.csv/ });
    await link.waitFor();
    expect(await link.innerText()).toMatch(/\(1 row, /);
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('the sites CSV import lists every problem of a refused row, and saves nothing', async () => {
    const seeded = await login('admin');
    const stored = async () =>
      ((await apiAs(seeded.cookie, 'GET', '/api/admin/election')).json as { calendar: ElectionCalendar })
        .calendar;
    const before = await stored();
    const keep = before.sites.map((s) => `${s.id},"${s.name}","${s.address}",`);
    const csv = ['id,name,address,map_url', ...keep, 'Two Problems,,"4 Main St",'].join('\r\n');
    const page = await openDashboard(browser, admin.username, admin.password);
    await page.getByRole('tab', { name: 'Election' }).click();
    await page.locator('#election-sites-csv').setInputFiles({
      name: 'sites.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByRole('button', { name: 'Import sites' }).click();
    const refused = page.getByRole('list', { name: 'Rows refused' });
    await refused.waitFor();
    // The bad row is the file's last line (row 1 is the header): its id and its missing name, both.
    expect(await refused.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^Row ${keep.length + 2}: id: .+; name: `)),
    ]);
    await expectNoAxeViolations(page);
    expect(await stored()).toEqual(before);
    await page.close();
  });

  it('the staff email for a contact message says when, in New Orleans time, not a raw UTC timestamp', async () => {
    const email = `when-${run}@example.org`;
    const sent = await apiAs(null, 'POST', '/api/contact', {
      name: `When ${run}`,
      email,
      phone: '',
      subject: 'general',
      message: 'What time did this arrive?',
      captcha: TURNSTILE_TEST_TOKEN,
    });
    expect(sent.status, sent.text).toBe(201);
    const alert = async () => {
      const { stdout } = await promisify(execFile)(process.execPath, ['scripts/outbox.mts', 'email'], {
        cwd: process.cwd(),
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout.split('─'.repeat(72)).find((m) => m.includes(`<${email}>`)) ?? '';
    };
    await expect.poll(alert).toContain(`<${email}>`);
    const mail = await alert();
    expect(mail).toMatch(/^Received: \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M \(New Orleans time\)$/m);
    expect(
      mail.split('\n').filter((l) => /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(l) && !l.startsWith('EMAIL ')),
    ).toEqual([]);
  });
});
