import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryKV } from '../../scripts/lib/directory-kv.mts';
import { VolunteerSignupSchema } from '../../src/lib/schemas/forms.ts';
import { bulkInsertInbox } from '../../src/lib/server/inbox/bulk.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { volunteerRecord } from '../../src/lib/server/public-forms/submissions.ts';
import { expectNoAxeViolations } from './helpers/axe';
import { createStaff, dashboardBrowser } from './helpers/staff';

/*
 * The Inbox with 10,000 volunteers (docs/decisions/163-tests.md): paging,
 * the language filter, a search and an Export CSV of all of them, each checked for the rows it shows. The
 * time each action took is logged, never asserted (the bench holds the one-second target:
 * docs/decisions/168-benchmarks-and-scale.md). The records are the repository's own (volunteerRecord), written by the
 * bulk path straight into the dev server's store, tagged with this run so the file can run again.
 */

const browser = dashboardBrowser();
const N = 10_000;
const run = Date.now().toString(36);
const tag = `scale-${run}`;
const email = (i: number) => `volunteer.${i}.${tag}@example.org`;
const spanish = (i: number) => i % 3 === 1;
const CITIES = ['New Orleans', 'Metairie', 'Kenner', 'Gretna'];
const T0 = Date.now() - 30 * 86_400_000;
const times: string[] = [];

beforeAll(async () => {
  // The dev server's store (scripts/lib/dev-server.mts: .netlify/blobs-serve, site "0").
  const directory = join(process.cwd(), '.netlify', 'blobs-serve');
  setStoreFactory((name) => new DirectoryKV(directory, '0', name));
  try {
    const meta = { ip: '192.0.2.9', userAgent: 'inbox-scale.test.ts' };
    await bulkInsertInbox(
      'volunteers',
      Array.from({ length: N }, (_, i) =>
        volunteerRecord(
          VolunteerSignupSchema.parse({
            firstName: spanish(i) ? 'Lucía' : 'James',
            lastName: `Tester${i}`,
            email: email(i),
            phone: `+1504${String(3_000_000 + i)}`,
            address1: `${i} Magazine St`,
            city: CITIES[i % CITIES.length],
            state: 'LA',
            zip: '70115',
            interests: ['Canvassing'],
            captchaResponse: 'seed',
            lang: spanish(i) ? 'es' : 'en',
          }),
          meta,
          new Date(T0 + i * 60_000),
        ),
      ),
    );
  } finally {
    setStoreFactory(null);
  }
}, 300_000);

afterAll(() => {
  console.log(`Inbox with ${N.toLocaleString('en-US')} volunteers (dev server): ${times.join(', ')}`);
});

/** Runs an action and waits for what it should show; logs how long that took. */
async function timed(what: string, action: () => Promise<unknown>, shown: () => Promise<unknown>) {
  const t = performance.now();
  await action();
  await shown();
  times.push(`${what} ${Math.round(performance.now() - t)} ms`);
}

const emailsShown = (page: Page) =>
  page
    .getByRole('table', { name: 'Volunteer sign-ups' })
    .locator('tbody tr td:nth-child(2)')
    .evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));

/** A fresh editor of this file's, signed in, on the Inbox tab. */
async function openInbox(name: string): Promise<Page> {
  const staff = await createStaff('editor', `${name}-${run}`);
  const page = await browser.newPage();
  await page.goto('/admin');
  await page.getByLabel('Username or Email').fill(staff.username);
  await page.getByLabel('Password', { exact: true }).fill(staff.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
  return page;
}

const totalShown = (page: Page, n: number) =>
  page
    .getByText(`${n.toLocaleString('en-US')} volunteer sign-up${n === 1 ? '' : 's'}`, { exact: true })
    .waitFor();

describe(`the Inbox with ${N.toLocaleString('en-US')} volunteers`, () => {
  it('pages, filters by language and searches, each showing the right rows', async () => {
    const page = await openInbox('inbox-scale');
    await timed(
      'open the Inbox',
      () => page.getByRole('tab', { name: 'Inbox' }).click(),
      () => page.getByRole('table', { name: 'Volunteer sign-ups' }).waitFor(),
    );

    // Everything of this run: newest first.
    await timed(
      'search',
      () => page.getByLabel('Search').fill(tag),
      () => totalShown(page, N),
    );
    expect(await emailsShown(page)).toEqual(Array.from({ length: 50 }, (_, k) => email(N - 1 - k)));
    await page.getByText(`Page 1 of ${N / 50}`).waitFor();
    await expectNoAxeViolations(page);

    await timed(
      'next page',
      () => page.getByRole('button', { name: 'Next' }).click(),
      () => page.getByText(`Page 2 of ${N / 50}`).waitFor(),
    );
    await page.getByRole('cell', { name: email(N - 51) }).waitFor();
    expect(await emailsShown(page)).toEqual(Array.from({ length: 50 }, (_, k) => email(N - 51 - k)));

    // The language filter starts again at page 1, with only the Spanish sign-ups.
    const es = Array.from({ length: N }, (_, i) => i)
      .filter(spanish)
      .reverse();
    await timed(
      'language filter',
      () => page.getByLabel('Language').selectOption('es'),
      () => totalShown(page, es.length),
    );
    await page.getByText(`Page 1 of ${Math.ceil(es.length / 50)}`).waitFor();
    expect(await emailsShown(page)).toEqual(es.slice(0, 50).map(email));
    const languages = await page
      .getByRole('table', { name: 'Volunteer sign-ups' })
      .locator('tbody tr td:nth-child(6)')
      .allInnerTexts();
    expect(new Set(languages)).toEqual(new Set(['Spanish']));

    // One person, by email, in any letter case.
    await page.getByLabel('Language').selectOption('');
    await timed(
      'search one person',
      () => page.getByLabel('Search').fill(email(4242).toUpperCase()),
      () => totalShown(page, 1),
    );
    expect(await emailsShown(page)).toEqual([email(4242)]);
    await page.getByRole('cell', { name: 'James Tester4242' }).waitFor();
    await page.close();
  }, 180_000);

  it('exports all of them in the background: progress, then a link, by keyboard; axe-clean throughout', async () => {
    const page = await openInbox('inbox-export');
    await page.getByRole('tab', { name: 'Inbox' }).click();
    await page.getByLabel('Search').fill(tag);
    await totalShown(page, N);
    const button = page.getByRole('button', { name: 'Export CSV of volunteer sign-ups' });
    await button.focus();
    const t = performance.now();
    const [started] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/admin/exports') && r.request().method() === 'POST'),
      page.keyboard.press('Enter'),
    ]);
    expect(started.status(), await started.text()).toBe(202);
    await page
      .getByRole('status')
      .filter({ hasText: /Preparing volunteers-[\d-]+\.csv: [\d,]+ of 10,000 rows/ })
      .waitFor()
      .catch(async (err: unknown) => {
        throw new Error(
          `no progress shown: ${JSON.stringify(await page.getByRole('status').allInnerTexts())}`,
          {
            cause: err,
          },
        );
      });
    await expectNoAxeViolations(page);
    const link = page.getByRole('link', { name: /^Download volunteers-[\d-]+\.csv/ });
    await link.waitFor({ timeout: 150_000 });
    times.push(`export of ${N.toLocaleString('en-US')} rows ${Math.round(performance.now() - t)} ms`);
    await expectNoAxeViolations(page);
    // The link follows the button in the tab order.
    await button.focus();
    await page.keyboard.press('Tab');
    expect(await link.evaluate((a) => a === document.activeElement)).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(N + 1);
    expect(lines[1]).toContain(email(N - 1));
    expect(lines.at(-1)).toContain(email(0));
    await page.close();
  }, 240_000);
});
