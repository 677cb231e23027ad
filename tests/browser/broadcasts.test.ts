import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSUBSCRIBE_COPY } from '../../src/content/unsubscribe.ts';
import { BROADCAST_CHANGED, type BroadcastView } from '../../src/lib/schemas/broadcast-views.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { expectNoAxeViolations } from './helpers/axe';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { apiAs, createStaff, dashboardBrowser, expectToast, login, openDashboard } from './helpers/staff';

/*
 * Broadcasts end to end on the dev server (docs/decisions/152-broadcasts.md): an admin composes a text
 * (the live counter, GSM-7 and Unicode), counts it, previews, tests, schedules, pauses and resumes, cancels;
 * composes an email in the editor, tests it to their own address and sends it to volunteers of one city,
 * watching the progress to the end, after an editor's change made while the admin reviewed it was refused
 * (approval is for one version, docs/decisions/121); axe on every state. Then the email's unsubscribe link with JavaScript off,
 * in English and Spanish. The dev server runs the delivery job right after an action (local mode).
 */

const browser = dashboardBrowser();
const run = Date.now().toString(36);
const city = `Bcity${run}`;
const source = `/bc-${run}`;
const phone = `50452${String(Date.now() % 100_000).padStart(5, '0')}`;
let admin: { username: string; password: string };
let editor: { username: string; password: string };
let noJs: BrowserSession;
let js: BrowserSession;

beforeAll(async () => {
  admin = await createStaff('admin', `bc-admin-${run}`);
  editor = await createStaff('editor', `bc-editor-${run}`);
  // Two volunteers in a city of their own: the email's audience.
  for (const [i, lang] of (['en', 'es'] as const).entries()) {
    const res = await apiAs(null, 'POST', '/api/volunteers-sendgrid', {
      // Names made of letters only: a name with a digit is not greeted (src/lib/merge-fields.ts).
      firstName: ['Ana', 'Beatriz'][i]!,
      lastName: 'Broadcast',
      email: `vol${i}-${run}@example.org`,
      phone: `504525${String(1000 + i)}`,
      address1: '1 Canal St',
      city,
      state: 'LA',
      captchaResponse: TURNSTILE_TEST_TOKEN,
      lang,
    });
    expect(res.status, res.text).toBeLessThan(300);
  }
  // One text subscriber who signed up on a page of their own: the text's audience.
  const text = await apiAs(null, 'POST', '/api/newsletter', {
    firstName: 'Tex',
    phone,
    smsConsent: true,
    sourcePage: source,
    captcha: TURNSTILE_TEST_TOKEN,
    lang: 'es',
  });
  expect(text.status, text.text).toBeLessThan(300);
  noJs = await launchBrowser({ javaScriptEnabled: false });
  js = await launchBrowser();
});
afterAll(async () => {
  await noJs?.close();
  await js?.close();
});

async function openBroadcasts(): Promise<Page> {
  const page = await openDashboard(browser, admin.username, admin.password);
  await page.getByRole('tab', { name: 'Broadcasts' }).click();
  await page.getByRole('heading', { name: 'Broadcasts', level: 2 }).waitFor();
  return page;
}

const detail = (page: Page) => page.getByRole('article');
const badge = (page: Page, text: string) =>
  detail(page).getByRole('heading', { level: 3 }).getByText(text, { exact: true }).waitFor();

/** The emails local mode stored for an address (the dev server's outbox, as `npm run outbox` prints them: a bulk email's headers before its subject). */
async function mailsTo(email: string): Promise<{ subject: string; text: string }[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/outbox.mts', 'email'], {
    cwd: process.cwd(),
    maxBuffer: 64 * 1024 * 1024,
  });
  const mails: { subject: string; text: string }[] = [];
  for (const m of stdout.split('─'.repeat(72))) {
    const [, to, subject = '', text = ''] =
      /EMAIL \S+ {2}to (\S+)[^\n]*\n(?:[^\n]*\n)*?Subject: ([^\n]*)\n\n([\s\S]*)/.exec(m) ?? [];
    if (to === email) mails.push({ subject, text });
  }
  return mails;
}

describe('the Broadcasts tab', () => {
  it('a text: the live counter, count and cost, preview, a test, schedule, pause, resume, cancel', async () => {
    const page = await openBroadcasts();
    await page.getByRole('button', { name: 'New text' }).click();
    const form = page.getByRole('form', { name: 'Compose' });
    await form.getByLabel('Name (staff only)').fill(`GOTV ${run}`);
    await form.getByLabel('Sign-up page or refcode (optional)').fill(source);
    const body = form.getByLabel('Text (English)');
    await body.fill('Hi {firstName}, polls are open until 8 🗳️');
    const counter = page.locator('#broadcast-text-body-count');
    await counter.getByText(/Unicode: 70 in one segment/).waitFor();
    await counter.getByText(/Unicode because of: “🗳️”/).waitFor();
    await counter
      .getByText(/As sent: “Avery for Mayor: Hi friend, polls are open until 8 🗳️ Reply STOP to opt out\.”/)
      .waitFor();
    await expectNoAxeViolations(page);
    await body.fill('Hi {firstName}, polls are open until 8. Find yours at vote.example');
    await counter.getByText(/GSM-7: 160 in one segment/).waitFor();
    await counter.getByText(/1 segment\b/).waitFor();
    await form.getByLabel(/Text \(Spanish/).fill('Hola {firstName}, las urnas cierran a las 8');
    await page
      .locator('#broadcast-text-body-es-count')
      .getByText(/Responda ALTO para cancelar/)
      .waitFor();
    await form.getByRole('button', { name: 'Save draft' }).click();
    await expectToast(page, 'Draft saved');
    await badge(page, 'Draft');

    await detail(page).getByRole('button', { name: 'Count recipients and cost' }).click();
    await badge(page, 'Ready to send');
    await detail(page).getByRole('heading', { name: 'Before sending' }).waitFor();
    await detail(page)
      .getByText(/at \$0\.0083 a segment/)
      .waitFor();
    const counted = detail(page)
      .locator('dt', { hasText: /^Recipients$/ })
      .locator('xpath=following-sibling::dd');
    expect(await counted.textContent()).toBe('1');
    await detail(page)
      .getByText('Avery for Mayor: Hola friend, las urnas cierran a las 8 Responda ALTO para cancelar.')
      .waitFor();
    // A test text goes only to the sender's own verified phone (docs/decisions/152-broadcasts.md):
    // no number to type; without a verified phone, a link to Security (tests/browser/staff-phone.test.ts follows it).
    expect(await detail(page).getByLabel('Your mobile number').count()).toBe(0);
    await detail(page)
      .getByTestId('test-phone')
      .getByRole('link', { name: 'verify your mobile phone under Security' })
      .waitFor();
    expect(await detail(page).getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
    await expectNoAxeViolations(page);

    const tomorrow = new Date(Date.now() + 86_400_000);
    const local = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}T10:00`;
    await detail(page).getByLabel('Or send later (your time)').fill(local);
    await detail(page).getByRole('button', { name: 'Schedule' }).click();
    // Scheduling reaches the whole audience: a confirmation says how many, who, what it costs and when.
    const confirm = page.getByRole('alertdialog', { name: /^Schedule for \d+ recipients?\?$/ });
    await confirm.waitFor();
    expect(await confirm.innerText()).toMatch(
      /goes to \d+ numbers .*text segments?, about \$[\d.]+ at \$0\.0083 a segment\. It starts /s,
    );
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Schedule it' }).click();
    await badge(page, 'Scheduled');
    await detail(page).getByRole('button', { name: 'Pause' }).click();
    await badge(page, 'Paused');
    await expectNoAxeViolations(page);
    await detail(page).getByRole('button', { name: 'Resume' }).click();
    await badge(page, 'Scheduled');
    await detail(page).getByRole('button', { name: 'Cancel broadcast' }).click();
    await badge(page, 'Cancelled');
    await detail(page).getByRole('progressbar').waitFor();
    await expectNoAxeViolations(page);
  });

  it('an email: the editor, a test to my own address, sent to one city’s volunteers with the progress to the end', async () => {
    const page = await openBroadcasts();
    await page.getByRole('button', { name: 'New email' }).click();
    const form = page.getByRole('form', { name: 'Compose' });
    await form.getByLabel('Name (staff only)').fill(`Newsletter ${run}`);
    await form.getByLabel('Who').selectOption('volunteers');
    await form.getByLabel('City or ZIP (optional)').fill(city);
    await form.getByLabel('Subject (English)').fill('Polls open at 7');
    await form.getByRole('textbox', { name: 'Email (English, required)' }).click();
    await page.keyboard.type('Hi {firstName}, see you at the polls.');
    await form.getByLabel('Subject (Spanish)').fill('Las urnas abren a las 7');
    await form.getByRole('textbox', { name: /Email \(Spanish/ }).click();
    await page.keyboard.type('Hola {firstName}, nos vemos.');
    await expectNoAxeViolations(page);
    await form.getByRole('button', { name: 'Save draft' }).click();
    await badge(page, 'Draft');
    await detail(page).getByRole('button', { name: 'Count recipients and cost' }).click();
    await badge(page, 'Ready to send');
    const recipients = detail(page)
      .locator('dt', { hasText: /^Recipients$/ })
      .locator('xpath=following-sibling::dd');
    expect(await recipients.textContent()).toBe('2');
    await detail(page)
      .getByText(/Pagado por/)
      .first()
      .waitFor();

    await detail(page).getByLabel('Version').selectOption('es');
    await detail(page).getByRole('button', { name: 'Send test' }).click();
    const me = `${admin.username}@example.org`;
    await detail(page).getByRole('status').getByText(`Test sent to ${me}.`).waitFor();

    // Approval is for one version (docs/decisions/152-broadcasts.md): an editor changes the
    // broadcast and prepares it again while the admin reviews it.
    const ed = await login(editor.username, editor.password);
    const list = await apiAs(ed.cookie, 'GET', '/api/admin/broadcasts');
    const id = (list.json!.items as { id: number; name: string }[]).find(
      (b) => b.name === `Newsletter ${run}`,
    )!.id;
    const read = async () =>
      (await apiAs(ed.cookie, 'GET', `/api/admin/broadcasts/${id}`)).json as unknown as BroadcastView;
    async function editAndPrepare(subject: string) {
      const { broadcast: b, version } = await read();
      const put = await apiAs(ed.cookie, 'PUT', `/api/admin/broadcasts/${id}`, {
        name: b.name,
        channel: b.channel,
        audience: b.audience,
        email: { ...b.email, subject },
      });
      expect(put.status, put.text).toBe(200);
      expect((await apiAs(ed.cookie, 'POST', `/api/admin/broadcasts/${id}/prepare`)).status).toBe(200);
      await expect.poll(async () => (await read()).version).not.toBe(version);
      await expect.poll(async () => (await read()).broadcast.status).toBe('ready');
    }
    // 1. Before the admin's view is read again (held here until the admin approves): the approval names the
    //    version on screen and is refused; the view then shows the new version and says it changed.
    const reviewed = await apiAs(ed.cookie, 'GET', `/api/admin/broadcasts/${id}`);
    let held = true;
    await page.route(`**/api/admin/broadcasts/${id}`, (route) =>
      held && route.request().method() === 'GET'
        ? route.fulfill({ status: 200, contentType: 'application/json', body: reviewed.text })
        : route.continue(),
    );
    await page.route(`**/api/admin/broadcasts/${id}/send`, (route) => {
      held = false;
      return route.continue();
    });
    await editAndPrepare('Polls open at 7 a.m.');
    await detail(page).getByRole('button', { name: 'Approve and send now' }).click();
    await page.getByRole('button', { name: 'Send it now' }).click();
    await expectToast(page, 'Failed: Approve and send now');
    await detail(page).getByRole('alert').getByText(BROADCAST_CHANGED).waitFor();
    await detail(page).getByText('Polls open at 7 a.m.').first().waitFor();
    await badge(page, 'Ready to send');
    await expectNoAxeViolations(page);
    await page.unrouteAll();
    // 2. While the admin's view is open (opened anew): it reads the broadcast again by itself and says it changed.
    await page.reload();
    await page.getByRole('tab', { name: 'Broadcasts' }).click();
    await page.getByRole('button', { name: `Open Newsletter ${run}` }).click();
    await detail(page).getByText('Polls open at 7 a.m.').first().waitFor();
    expect(await detail(page).getByRole('alert').count()).toBe(0);
    await editAndPrepare('Polls open at 7:00 a.m.');
    await detail(page).getByRole('alert').getByText(BROADCAST_CHANGED).waitFor();
    await detail(page).getByText('Polls open at 7:00 a.m.').first().waitFor();
    await badge(page, 'Ready to send');

    await detail(page).getByRole('button', { name: 'Approve and send now' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Send to 2 recipients now?' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toMatch(/goes to 2 addresses \(\d+ in Spanish\): Volunteers · in /);
    // "Not yet" sends nothing; the second time it goes.
    await confirm.getByRole('button', { name: 'Not yet' }).click();
    await confirm.waitFor({ state: 'detached' });
    await badge(page, 'Ready to send');
    await detail(page).getByRole('button', { name: 'Approve and send now' }).click();
    await confirm.getByRole('button', { name: 'Send it now' }).click();
    await badge(page, 'Completed');
    await detail(page).getByText('2 of 2 done (100%)').waitFor();
    expect(await detail(page).getByRole('progressbar').getAttribute('value')).toBe('2');
    await expectNoAxeViolations(page);
    // The report through the one export mechanism: a signed link for the one who asked, staff only.
    await detail(page).getByRole('button', { name: 'Export CSV of the report' }).click();
    const link = detail(page).getByRole('link', { name: /^Download broadcast-/ });
    await link.waitFor();
    await expectNoAxeViolations(page);
    const report = await apiAs(null, 'GET', (await link.getAttribute('href'))!);
    expect(report.status).toBe(401); // staff only
    const mail = (await mailsTo(`vol1-${run}@example.org`)).at(-1);
    expect(mail?.subject).toBe('Las urnas abren a las 7');
    // The version approved: the editor's last change, each volunteer once.
    expect((await mailsTo(`vol0-${run}@example.org`)).map((m) => m.subject)).toEqual([
      'Polls open at 7:00 a.m.',
    ]);
    expect(mail?.text).toContain('Hola Beatriz, nos vemos.');
    const test = (await mailsTo(me)).at(-1);
    expect(test?.subject).toBe('[Test] Las urnas abren a las 7');
  });
});

describe('the unsubscribe link of a broadcast email, without JavaScript', () => {
  for (const [i, lang] of (['en', 'es'] as const).entries())
    it(`${lang}: the page, the button, the done page`, async () => {
      const words = UNSUBSCRIBE_COPY[lang];
      const mail = (await mailsTo(`vol${i}-${run}@example.org`)).at(-1)!;
      const link = new URL(/https?:\/\/\S+\/unsubscribe\?\S+/.exec(mail.text)![0]);
      expect(link.pathname).toBe(lang === 'es' ? '/es/unsubscribe' : '/unsubscribe');
      const page = await noJs.newPage();
      await page.goto(link.pathname + link.search);
      await page.getByRole('button', { name: words.submit }).click();
      await page.waitForURL(/\/unsubscribe\/done/);
      expect(new URL(page.url()).pathname).toBe(lang === 'es' ? '/es/unsubscribe/done' : '/unsubscribe/done');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(words.doneHeading);
      await page.close();
      // axe needs scripts in the page: both states again in a JavaScript page (the same server-rendered markup).
      const scripted = await js.newPage();
      for (const path of [link.pathname + link.search, new URL(page.url()).pathname]) {
        await scripted.goto(path);
        await expectNoAxeViolations(scripted);
      }
      await scripted.close();
    });
});
