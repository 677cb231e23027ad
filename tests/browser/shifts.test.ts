import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFor } from '../../src/content/copy';
import { SHIFT_COPY } from '../../src/content/shifts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env';
import { expectNoAxeViolations } from './helpers/axe';
import { baseURL, launchBrowser, type BrowserSession } from './helpers/browser';
import { apiAs, devAdminCookie, hydrated } from './helpers/public';

/*
 * Volunteer shifts on the event page (docs/decisions/181-shifts.md): the shifts are listed in the server's HTML
 * with their places, a full one says so and offers its waitlist, and a volunteer signs up for two in one form,
 * with JavaScript off (a form post, 303 to the outcome page) and on (the island's answer per shift), in English
 * and Spanish; axe finds nothing in any state.
 */

const run = Date.now().toString(36);
let eventId = 0;
const slots = [
  { id: 'morning', date: '2031-01-04', start: '09:00', end: '12:00', capacity: 20, label: 'Mid-City' },
  { id: 'afternoon', date: '2031-01-04', start: '12:00', end: '15:00', capacity: 20, label: 'Mid-City' },
  { id: 'full', date: '2031-01-04', start: '15:00', end: '18:00', capacity: 1, label: 'Mid-City' },
];

let noScript: BrowserSession;
let scripted: BrowserSession;
beforeAll(async () => {
  const cookie = await devAdminCookie();
  const date = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const created = await apiAs(cookie, 'POST', '/api/admin/events', {
    title: `Canvass ${run}`,
    location: 'Mid-City Library, 4140 Canal St',
    eventDate: date,
    startTime: '09:00',
    endTime: '18:00',
    eventType: 'community_event',
    isPublic: true,
    registrationRequired: true,
    maxAttendees: null,
  });
  expect(created.status).toBe(201);
  eventId = (created.body as { event: { id: number } }).event.id;
  const put = await apiAs(cookie, 'PUT', `/api/admin/events/${eventId}/shifts`, { slots });
  expect(put.status).toBe(200);
  // The last shift is full.
  const res = await fetch(new URL(`/api/events/${eventId}/rsvp`, baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' },
    body: JSON.stringify({
      name: 'First Person',
      email: `first-${run}@example.org`,
      captchaResponse: TURNSTILE_TEST_TOKEN,
      slots: ['full'],
    }),
  });
  expect(res.status, await res.text()).toBe(201);
  noScript = await launchBrowser({ javaScriptEnabled: false });
  scripted = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await noScript?.close();
  await scripted?.close();
});

describe.each(['en', 'es'] as const)('shifts on the event page (%s)', (lang) => {
  const words = SHIFT_COPY[lang];
  const rsvp = copyFor(lang).ui.eventPageCopy.rsvp;
  const formUi = copyFor(lang).ui.formUi;
  const prefix = lang === 'en' ? '' : '/es';

  it('without JavaScript: the shifts are in the HTML, the full one offers its waitlist; two shifts in one post', async () => {
    const page = await noScript.newPage();
    await page.goto(`${prefix}/events/${eventId}`);
    const form = page.getByRole('form', { name: rsvp.formLabel });
    const group = form.getByRole('group', { name: words.heading });
    expect(await group.locator('[data-slot]').count()).toBe(3);
    expect(await group.locator('[data-slot="full"]').innerText()).toContain(words.full);
    // Places left, however many the other tests took.
    const placesLeft = new RegExp(words.placesLeft.replace('{0}', '\\d+'));
    expect(await group.locator('[data-slot="morning"]').innerText()).toMatch(placesLeft);
    // Each shift links its own calendar file, served by the site in the page's language.
    const ics = group.locator('[data-slot="morning"] [data-slot-ics]');
    expect(await ics.getAttribute('href')).toBe(`${prefix}/events/${eventId}/shifts/morning.ics`);
    const file = await page.request.get(`${prefix}/events/${eventId}/shifts/morning.ics`);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    expect(await file.text()).toContain(`UID:shift-${eventId}-morning@`);
    const axePage = await scripted.newPage();
    await axePage.goto(`${prefix}/events/${eventId}`);
    await expectNoAxeViolations(axePage);
    await axePage.close();

    await form.locator('input[name="name"]').fill(lang === 'en' ? 'Rosa Parks' : 'María José Núñez');
    await form.locator('input[name="email"]').fill(`nojs-${lang}-${run}@example.org`);
    await form.locator('input[value="morning"]').check();
    await form.locator('input[value="full"]').check();
    await form.getByLabel(formUi.captchaHuman).check();
    await Promise.all([
      page.waitForURL(`**${prefix}/forms/rsvp/sent`, { timeout: 45_000 }),
      form.getByRole('button', { name: words.submit }).click(),
    ]);
    const done = await scripted.newPage();
    await done.goto(new URL(page.url()).pathname);
    await expectNoAxeViolations(done);
    await done.close();
    await page.close();
  }, 180_000);

  it('with JavaScript: two shifts in one sign-up, each answered (placed, waitlisted)', async () => {
    const page = await scripted.newPage();
    await page.goto(`${prefix}/events/${eventId}`);
    await hydrated(page, 'RsvpForm');
    const form = page.getByRole('form', { name: rsvp.formLabel });
    await form.locator('input[name="name"]').fill(lang === 'en' ? 'Fannie Lou' : 'Lucía');
    await form.locator('input[name="email"]').fill(`js-${lang}-${run}@example.org`);
    await form.locator('input[value="afternoon"]').check();
    await form.locator('input[value="full"]').check();
    await form.getByLabel(formUi.captchaHuman).check();
    await expectNoAxeViolations(page);
    await form.getByRole('button', { name: words.submit }).click();
    await page.locator('[data-shift-results]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-shift-result="going"]').innerText()).toContain(words.going);
    expect(await page.locator('[data-shift-result="waitlisted"]').innerText()).toContain(
      words.waitlisted.replace(' {0}', '').split('(')[0]!.trim(),
    );
    await expectNoAxeViolations(page);
    await page.close();
  }, 180_000);
});

/*
 * The staffing grid in the dashboard (docs/decisions/181-shifts.md): places by days, filled / needed, each gap named
 * in words with a marker, a text summary, the table scrolling in its own labelled region; at desktop and phone
 * width, axe 0. And check-in with its undo at a phone's width.
 */
describe('the staffing grid and check-in in the dashboard', () => {
  let staff: BrowserSession;
  let gridEvent = 0;
  const title = `Grid ${run}`;
  const north = `North ${run}`;
  const south = `South ${run}`;
  const volunteer = `Grid Volunteer ${run}`;
  beforeAll(async () => {
    const cookie = await devAdminCookie();
    const date = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
    const created = await apiAs(cookie, 'POST', '/api/admin/events', {
      title,
      location: 'Mid-City Library, 4140 Canal St',
      eventDate: date,
      startTime: '09:00',
      endTime: '18:00',
      eventType: 'community_event',
      isPublic: true,
      registrationRequired: true,
      maxAttendees: null,
    });
    expect(created.status).toBe(201);
    gridEvent = (created.body as { event: { id: number } }).event.id;
    const at = (id: string, d: string, capacity: number, label: string) => ({
      id,
      date: d,
      start: '09:00',
      end: '12:00',
      capacity,
      siteId: null,
      label,
    });
    const put = await apiAs(cookie, 'PUT', `/api/admin/events/${gridEvent}/shifts`, {
      slots: [
        at('north-d1', '2031-01-04', 1, north),
        at('north-d2', '2031-01-05', 2, north),
        at('south-d1', '2031-01-04', 2, south),
        at('election-day-2031-01-06-0700', '2031-01-06', 3, 'Election Day'),
      ],
    });
    expect(put.status).toBe(200);
    const res = await fetch(new URL(`/api/events/${gridEvent}/rsvp`, baseURL), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify({
        name: volunteer,
        email: `grid-${run}@example.org`,
        captchaResponse: TURNSTILE_TEST_TOKEN,
        slots: ['north-d1', 'south-d1'],
      }),
    });
    expect(res.status, await res.text()).toBe(201);
    staff = await launchBrowser();
    await staff.context.addCookies(
      cookie.split('; ').map((pair) => {
        const i = pair.indexOf('=');
        return { name: pair.slice(0, i), value: pair.slice(i + 1), url: baseURL };
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await staff?.close();
  });

  /** The dialog at this width, its grid checked: cells, gaps named, the summary, the region by keyboard, axe 0. */
  async function gridAt(viewport: 'desktop' | 'mobile') {
    const page = await staff.newPage(viewport);
    await page.goto(`/admin#events/${gridEvent}/shifts?title=${encodeURIComponent(title)}`);
    const dialog = page.getByRole('dialog', { name: `Shifts: ${title}` });
    const region = dialog.getByRole('region', { name: 'Staffing grid (scrolls)' });
    const grid = region.getByRole('table', { name: /Staffing grid/ });
    await grid.waitFor({ timeout: 60_000 });
    expect(await grid.locator('thead th').count()).toBe(4);
    const northRow = grid.getByRole('row', { name: new RegExp(north) });
    expect((await northRow.locator('td').nth(0).innerText()).trim()).toBe('1 / 1');
    expect(await northRow.locator('td').nth(1).innerText()).toContain('Short 2');
    expect(
      await grid
        .getByRole('row', { name: new RegExp(south) })
        .locator('td')
        .nth(0)
        .innerText(),
    ).toContain('Short 1');
    expect(
      await grid
        .getByRole('row', { name: /Election Day polls/ })
        .locator('td')
        .nth(2)
        .innerText(),
    ).toContain('Short 3');
    expect(await dialog.locator('[data-staffing-summary]').innerText()).toBe('3 shifts short of 6 people.');
    // The region scrolls by keyboard: it takes focus.
    await region.focus();
    expect(await region.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectNoAxeViolations(page);
    return { page, dialog, grid };
  }

  it('the grid (desktop): filled / needed per place and day, the gaps named, a summary, axe 0; a gap recruits: the composer opens on volunteers not yet on a shift', async () => {
    const { page, grid } = await gridAt('desktop');
    const row = grid.getByRole('row', { name: new RegExp(south) });
    await row.locator('[data-recruit]').click();
    const compose = page.getByRole('form', { name: 'Compose' });
    await compose.waitFor({ timeout: 30_000 });
    expect(await compose.getByLabel('Name (staff only)').inputValue()).toContain(`Recruit: ${south}`);
    expect(await compose.getByLabel('Who').inputValue()).toBe('people');
    await page.close();
  }, 180_000);

  it('the grid (mobile), and check-in with its undo at a phone width', async () => {
    const { page, dialog } = await gridAt('mobile');
    await dialog.getByRole('button', { name: /People and check-in\W+north-d1/ }).click();
    const checkIn = dialog.getByRole('button', { name: new RegExp(`^Check in\\W+${volunteer}`) });
    await checkIn.click();
    const undo = dialog.getByRole('button', { name: new RegExp(`^Undo check-in\\W+${volunteer}`) });
    await undo.waitFor({ timeout: 30_000 });
    expect(await undo.getAttribute('aria-pressed')).toBe('true');
    await expectNoAxeViolations(page);
    await undo.click();
    await checkIn.waitFor({ timeout: 30_000 });
    expect(await checkIn.getAttribute('aria-pressed')).toBe('false');
    await page.close();
  }, 180_000);
});
