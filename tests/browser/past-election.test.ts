import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { copyFor } from '../../src/content/copy';
import type { ElectionCalendar } from '../../src/lib/election-stage';
import { localizedPath } from '../../src/lib/lang-paths';
import type { Lang } from '../../src/lib/lang';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { apiAs, login, type Session } from './helpers/staff';
import { axeWithoutScripts, LANGS } from './helpers/vote-plan';

/*
 * A year after the election, on a phone, JavaScript off, in both languages: the office found /vote a long page of
 * the past (2,000 px of early-voting days, deadlines worded as instructions) and found that, locally, a calendar
 * edit never reached a page (docs/decisions/157-election-calendar.md, "Which calendar a page reads";
 * 164-dev-server-and-local-mode.md). Here the dev server's pages are read after the admin stores the seeded
 * October 2025 calendar, then again after choosing "Campaign ended": each edit shows on the next request.
 *
 * The calendar is the whole site's, so this file runs alone before the others (vitest.config.ts ALONE) and puts the
 * stored calendar back afterwards (global-setup.ts's election ahead).
 */

let admin: Session;
let before: ElectionCalendar;
let noJs: BrowserSession;
let js: BrowserSession;

const stored = async () =>
  ((await apiAs(admin.cookie, 'GET', '/api/admin/election')).json as { calendar: ElectionCalendar }).calendar;
const store = async (calendar: ElectionCalendar) =>
  expect((await apiAs(admin.cookie, 'PUT', '/api/admin/election', calendar)).status).toBe(200);

beforeAll(async () => {
  admin = await login('admin');
  before = await stored();
  [noJs, js] = await Promise.all([launchBrowser({ javaScriptEnabled: false }), launchBrowser()]);
});
afterAll(async () => {
  await store(before);
  await Promise.all([noJs, js].map((b) => b?.close()));
});

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('/vote a year after the election, on a phone, JavaScript off', () => {
  it.each(LANGS)(
    '%s: past deadlines read as closed, no table of days, the polls "were" open',
    async (lang: Lang) => {
      const words = copyFor(lang).vote.voteCopy;
      const page = await noJs.newPage('mobile');
      const mainHeight = () => page.evaluate(() => document.querySelector('main')?.scrollHeight ?? 0);
      /** The page as a person reloading it sees it (the dev server shows a save on the next page: reloaded until it does). */
      const reload = async (rows: number) =>
        expect
          .poll(
            async () => {
              await page.goto(localizedPath('/vote', lang));
              return page.locator('main table tbody tr').count();
            },
            { interval: 1000 },
          )
          .toBe(rows);
      try {
        // While the election is ahead (the site under test's calendar): seven early-voting days in a table.
        await store(before);
        await reload(before.primary.earlyVoting.length);
        const ahead = await mainHeight();

        await store({ ...defaultElectionCalendar, mode: 'none', runoff: null });
        await reload(0);
        const labels = await page.locator('main dl.dates dt').allInnerTexts();
        expect(labels.map(squash)).toEqual(Object.values(words.deadlinesPast).map(squash));
        const main = squash(await page.locator('main').innerText());
        expect(main).not.toContain(words.deadlines.online);
        expect(main).toContain(words.earlyOver);
        expect(main).toContain(
          words.pollHoursPast(
            lang === 'en' ? '7:00 AM' : '7:00 a.m.',
            lang === 'en' ? '8:00 PM' : '8:00 p.m.',
          ),
        );
        // The 2025 early-voting table and its repeated site names are gone: the page is a short record.
        expect(await page.locator('main table').count()).toBe(0);
        expect(await page.locator('main .sites').count()).toBe(0);
        expect(await mainHeight()).toBeLessThan(ahead);
        await axeWithoutScripts(page, js);
      } finally {
        await page.close();
      }
    },
  );
});

describe('locally, a calendar edit reaches the next page (the dev server renders the stored calendar)', () => {
  it.each(LANGS)('%s: "Campaign ended" closes /volunteer’s form on the next request', async (lang: Lang) => {
    const closed = copyFor(lang).vote.afterCopy.volunteerClosed;
    const page = await noJs.newPage('mobile');
    try {
      await store({ ...defaultElectionCalendar, mode: 'none', runoff: null });
      // The form is offered (the dev server shows a save on the next page: reloaded until it does).
      await expect
        .poll(
          async () => {
            await page.goto(localizedPath('/volunteer', lang));
            return page.locator('main form').count();
          },
          { interval: 1000 },
        )
        .toBeGreaterThan(0);
      expect(await page.locator('[data-form-closed]').count()).toBe(0);

      await store({ ...defaultElectionCalendar, mode: 'ended', runoff: null });
      await expect
        .poll(
          async () => {
            await page.goto(localizedPath('/volunteer', lang));
            return squash((await page.locator('[data-form-closed]').allInnerTexts()).join(' '));
          },
          { interval: 1000 },
        )
        .toContain(squash(closed));
      expect(await page.locator('main form').count()).toBe(0);
      await axeWithoutScripts(page, js);
    } finally {
      await page.close();
    }
  });
});
