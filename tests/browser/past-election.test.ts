import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFor } from '../../src/content/copy';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { localizedPath } from '../../src/lib/lang-paths';
import { LANGS } from '../../src/lib/lang';
import { expectNoAxeViolations } from './helpers/axe';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { apiAs, createStaff, login } from './helpers/staff';

/*
 * The site after its election, on the dev server, which renders these pages on request from the stored calendar
 * (docs/decisions/157-election-calendar.md, "Which calendar a page reads"): a staff member's calendar and outcome
 * edits reach /vote and /volunteer at once, and /vote after the election is a short record of what happened on a
 * phone, in both languages, with JavaScript off. The calendar is site-wide state every other browser file relies on
 * (they expect the election ahead), so this file runs alone, after them (`browser-alone`, vitest.config.ts), and
 * puts the calendar back whatever happens.
 */

let browser: BrowserSession;
let cookie: string;
let original: unknown;
beforeAll(async () => {
  browser = await launchBrowser({ javaScriptEnabled: false });
  const admin = await createStaff('admin', `past-${Date.now().toString(36)}`);
  cookie = (await login(admin.username, admin.password)).cookie;
  original = (await apiAs(cookie, 'GET', '/api/admin/election')).json!.calendar;
});
afterAll(async () => {
  await apiAs(cookie, 'PUT', '/api/admin/election', original);
  await browser?.close();
});

/** Stores a calendar as the Election tab does. */
async function store(calendar: unknown): Promise<void> {
  const res = await apiAs(cookie, 'PUT', '/api/admin/election', calendar);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

describe('after the election, on the dev server', () => {
  it('/vote is a short record of what happened, on a phone, in both languages, JavaScript off', async () => {
    // The seeded 2025 election: its results date is long past today, and no outcome is set.
    await store({ ...defaultElectionCalendar, mode: 'none' });
    for (const lang of LANGS) {
      const words = copyFor(lang).vote.voteCopy;
      const page = await browser.newPage('mobile');
      await page.goto(localizedPath('/vote', lang));
      const text = await page.locator('main').innerText();
      // Passed deadlines are records, not instructions; the polls "were" open.
      expect(text).toContain(words.deadlinesPast.online);
      expect(text).not.toContain(words.deadlines.online);
      expect(text).toContain(words.pollHoursPast('\u0000', '\u0000').split('\u0000')[0]);
      // Early voting is one line, not a table of days repeating every site.
      expect(await page.getByRole('columnheader', { name: words.dayColumn }).count()).toBe(0);
      expect(text).toMatch(/\d/);
      await expectNoAxeViolations(page);
      await page.close();
    }
  });

  it('an outcome set by staff reaches /volunteer at once: the form gives way to staying in touch', async () => {
    await store({ ...defaultElectionCalendar, mode: 'ended' });
    for (const lang of LANGS) {
      const after = copyFor(lang).vote.afterCopy;
      const page = await browser.newPage('mobile');
      await page.goto(localizedPath('/volunteer', lang));
      await page.getByText(after.volunteerClosed).waitFor();
      expect(await page.getByRole('link', { name: after.stayInTouch.label }).count()).toBe(1);
      // No ten-field form the server would refuse with 410.
      expect(await page.getByRole('textbox', { name: /first name|nombre/i }).count()).toBe(0);
      await expectNoAxeViolations(page);
      await page.close();
    }
  });
});
