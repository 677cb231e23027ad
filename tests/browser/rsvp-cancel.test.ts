import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFor } from '../../src/content/copy';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env';
import { expectNoAxeViolations } from './helpers/axe';
import { baseURL, launchBrowser, type BrowserSession } from './helpers/browser';
import { apiAs, devAdminCookie, hydrated } from './helpers/public';

/*
 * The RSVP cancellation page (docs/decisions/150-rsvp.md): it names the event, the
 * button cannot be pressed again once the RSVP is cancelled, and opening the
 * link again shows "cancelled", in English and Spanish, with JavaScript off
 * and on; axe finds nothing in any of those states. The links come from the
 * local outbox, as a person would get them.
 */

const run = Date.now().toString(36);
const title = `Levee Walk ${run}`;
let eventId = 0;

async function rsvpAs(name: string, email: string, lang: 'en' | 'es'): Promise<void> {
  const res = await fetch(new URL(`/api/events/${eventId}/rsvp`, baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' },
    body: JSON.stringify({ name, email, guests: 0, captchaResponse: TURNSTILE_TEST_TOKEN, lang }),
  });
  expect(res.status, await res.text()).toBe(201);
}

/** The path and query of the cancellation link emailed to `email` (the local outbox, as `npm run outbox` prints it). */
async function cancelLinkFor(email: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/outbox.mts', 'email'], {
    cwd: process.cwd(),
  });
  const mail = stdout
    .split('─'.repeat(72))
    .reverse()
    .find((m) => m.includes(`to ${email}`));
  const link = /(https?:\/\/\S+\/rsvp\/cancel\?\S+)/.exec(mail ?? '')?.[1];
  expect(link, `cancellation link emailed to ${email}`).toBeTruthy();
  const u = new URL(link!);
  return `${u.pathname}${u.search}`;
}

let noScript: BrowserSession;
let scripted: BrowserSession;
beforeAll(async () => {
  const cookie = await devAdminCookie();
  const date = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const created = await apiAs(cookie, 'POST', '/api/admin/events', {
    title,
    location: 'Riverfront, Canal St at the river',
    eventDate: date,
    startTime: '09:00',
    endTime: '10:30',
    eventType: 'community_event',
    isPublic: true,
    registrationRequired: true,
    maxAttendees: 20,
  });
  expect(created.status).toBe(201);
  eventId = (created.body as { event: { id: number } }).event.id;
  noScript = await launchBrowser({ javaScriptEnabled: false });
  scripted = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await noScript?.close();
  await scripted?.close();
});

/**
 * axe needs scripts in the page: each state the no-JavaScript page reaches is
 * checked again in a JavaScript page at the same address (the server renders
 * the same markup; the island only enhances it).
 */
async function axeAt(path: string) {
  const page = await scripted.newPage();
  await page.goto(path);
  await expectNoAxeViolations(page);
  await page.close();
}

async function expectEventNamed(page: Page) {
  await page.getByRole('heading', { name: title, level: 2 }).waitFor();
  expect(await page.locator('[data-cancel-event]').innerText()).toContain(
    'Riverfront, Canal St at the river',
  );
}

describe.each(['en', 'es'] as const)('the cancellation page (%s)', (lang) => {
  const words = copyFor(lang).ui.rsvpCancelCopy;
  const outcome = copyFor(lang).forms.formCopy['rsvp-cancel'].outcomes.sent;
  const prefix = lang === 'en' ? '' : '/es';

  it('without JavaScript: names the event, cancels, and the reopened link says cancelled', async () => {
    const email = `cancel-${lang}-${run}@example.org`;
    await rsvpAs(lang === 'en' ? 'Rosa Parks' : 'María José Núñez', email, lang);
    const link = await cancelLinkFor(email);
    expect(link.startsWith(`${prefix}/rsvp/cancel?`)).toBe(true);

    const page = await noScript.newPage();
    const res = await page.goto(link);
    expect(res?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    await expectEventNamed(page);
    const form = page.getByRole('form', { name: words.formLabel });
    await axeAt(link);
    await Promise.all([
      page.waitForURL(`**${prefix}/forms/rsvp-cancel/sent`, { timeout: 45_000 }),
      form.getByRole('button', { name: words.submit }).click(),
    ]);
    await page.getByRole('heading', { name: outcome.heading }).waitFor();
    await axeAt(new URL(page.url()).pathname);

    // Reopened: the cancelled state, no button.
    await page.goto(link);
    await expectEventNamed(page);
    await page.getByRole('heading', { name: words.cancelledHeading }).waitFor();
    expect(await page.getByText(words.alreadyCancelled).count()).toBe(1);
    expect(await page.getByRole('button', { name: words.submit }).count()).toBe(0);
    await axeAt(link);
    await page.close();
  }, 120_000);

  it('with JavaScript: the button gives way to the cancelled state, which keeps focus', async () => {
    const email = `cancel-js-${lang}-${run}@example.org`;
    await rsvpAs(lang === 'en' ? "Seán O'Brien" : 'Nguyễn Thị Lan', email, lang);
    const page = await scripted.newPage();
    await page.goto(await cancelLinkFor(email));
    await hydrated(page, 'RsvpCancelForm');
    await expectEventNamed(page);
    await page.getByRole('button', { name: words.submit }).click();
    const done = page.locator('[data-cancel-state="cancelled"]');
    await done.waitFor({ timeout: 45_000 });
    expect(await done.innerText()).toContain(words.cancelled);
    expect(await page.getByRole('button', { name: words.submit }).isVisible()).toBe(false);
    // The form is gone, not left showing its busy button above the answer.
    expect(await page.locator('form[data-cancel-form]').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: words.submitting }).count()).toBe(0);
    expect(await done.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectNoAxeViolations(page);
    await page.close();
  }, 120_000);

  it('a link that is not valid names no event', async () => {
    const page = await noScript.newPage();
    const bad = `${prefix}/rsvp/cancel?event=${eventId}&token=${'A'.repeat(43)}`;
    const res = await page.goto(bad);
    expect(res?.status()).toBe(404);
    await page.getByText(words.badLink).waitFor();
    expect(await page.getByText(title).count()).toBe(0);
    expect(await page.getByRole('button', { name: words.submit }).count()).toBe(0);
    await axeAt(bad);
    await page.close();
  }, 60_000);
});
