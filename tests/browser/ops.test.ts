import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { buildURL, launchBrowser } from './helpers/browser';
import { dashboardBrowser } from './helpers/staff';
import { hydrated } from './helpers/public';

/*
 * RSVP on an event page (going,
 * then the waitlist), staff check-in on a phone-sized screen, and the link
 * builder's QR code decoded back to the URL with its refcode.
 */

const browser = dashboardBrowser();

const run = Date.now().toString(36);

async function signIn(page: Page, username = 'admin') {
  await page.goto('/admin');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(`${username}-dev-password`);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
}

/** An upcoming public event with one seat that takes RSVPs here, made through the admin API. */
async function makeEvent(page: Page, title: string): Promise<number> {
  const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const res = await page.request.fetch('/api/admin/events', {
    method: 'POST',
    headers: { Origin: buildURL, 'Content-Type': 'application/json' },
    data: {
      title,
      location: 'Mid-City Library, 4140 Canal St',
      eventDate: date,
      startTime: '18:00',
      endTime: '19:00',
      eventType: 'town_hall',
      isPublic: true,
      registrationRequired: true,
      maxAttendees: 1,
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { event: { id: number } }).event.id;
}

async function rsvp(page: Page, eventId: number, name: string, email: string) {
  await page.goto(`/events/${eventId}`);
  await hydrated(page, 'RsvpForm');
  const form = page.getByRole('form', { name: 'RSVP' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Guests you are bringing').selectOption('0');
  await form.getByLabel('I am human').check();
  await form.getByRole('button', { name: 'RSVP' }).click();
}

/**
 * Waits for the RSVP's answer (the dev server runs each function call in a fresh
 * worker: seconds per call), failing with the form's own error if it shows one.
 */
async function answered(page: Page, heading: string) {
  const done = page.getByRole('heading', { name: heading });
  const refused = page.locator('[data-rsvp-error]:not([hidden])');
  await done.or(refused).first().waitFor({ timeout: 60_000 });
  if (await refused.isVisible()) throw new Error(`RSVP refused: ${await refused.innerText()}`);
}

let eventId = 0;
const title = `Drainage Town Hall ${run}`;
const first = { name: `Rita ${run}`, email: `rita-${run}@example.org` };

describe('RSVP on the event page', () => {
  it('the form is plain HTML with named fields before any script runs', async () => {
    const page = await browser.newPage();
    await signIn(page);
    eventId = await makeEvent(page, title);
    const html = await (await page.request.get(`/events/${eventId}`)).text();
    expect(html).toContain(`action="/api/events/${eventId}/rsvp"`);
    for (const name of ['name', 'email', 'phone', 'guests', 'smsReminder'])
      expect(html).toContain(`name="${name}"`);
    await page.close();
  });

  it('with JavaScript: going, then the next person is told they are on the waitlist', async () => {
    const page = await browser.newPage();
    await rsvp(page, eventId, first.name, first.email);
    await answered(page, "You're going!");
    // The answer replaces the form and says "You're going!" once (the heading), not twice.
    expect(await page.locator('form[data-rsvp-form]').isVisible()).toBe(false);
    expect(await page.getByText("You're going!").count()).toBe(1);
    await expectNoAxeViolations(page);

    const second = await browser.newPage();
    await second.goto(`/events/${eventId}`);
    await hydrated(second, 'RsvpForm');
    await second.getByText('This event is full. You can still RSVP to join the waitlist').waitFor();
    await rsvp(second, eventId, `Sam ${run}`, `sam-${run}@example.org`);
    await answered(second, "You're on the waitlist");
    expect(await second.getByText('Your place on the waitlist: 1').count()).toBe(1);
    await expectNoAxeViolations(second);
    await page.close();
    await second.close();
  }, 180_000);

  it('asks for the captcha before sending', async () => {
    const page = await browser.newPage();
    await page.goto(`/events/${eventId}`);
    await hydrated(page, 'RsvpForm');
    const form = page.getByRole('form', { name: 'RSVP' });
    await form.getByLabel('Name').fill('No Captcha');
    await form.getByLabel('Email').fill(`nocaptcha-${run}@example.org`);
    await form.getByRole('button', { name: 'RSVP' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please complete the CAPTCHA' }).waitFor();
    await page.close();
  });
});

describe('RSVP without JavaScript', () => {
  it('posts the plain form, lands on the confirmation page, and the person is on the roster', async () => {
    const staff = await browser.newPage();
    await signIn(staff);
    const id = await makeEvent(staff, `No-script Town Hall ${run}`);
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await noScript.newPage();
      await page.goto(`/events/${id}`);
      const form = page.getByRole('form', { name: 'RSVP' });
      await form.getByLabel('Name').fill(`Nell ${run}`);
      await form.getByLabel('Email').fill(`nell-${run}@example.org`);
      await form.getByLabel('I am human').check();
      await Promise.all([
        page.waitForURL('**/forms/rsvp/sent', { timeout: 45_000 }),
        form.getByRole('button', { name: 'RSVP' }).click(),
      ]);
      await page.getByRole('heading', { level: 1, name: "You're Going!" }).waitFor();
      expect(page.url()).not.toContain('nell');
      // Without the captcha box: refused safely, nothing stored, a way back to the event.
      await page.goto(`/events/${id}`);
      await form.getByLabel('Name').fill(`Ned ${run}`);
      await form.getByLabel('Email').fill(`ned-${run}@example.org`);
      await Promise.all([
        page.waitForURL(/\/forms\/rsvp\?outcome=/, { timeout: 45_000 }),
        form.getByRole('button', { name: 'RSVP' }).click(),
      ]);
      await page.getByRole('alert').filter({ hasText: 'Please complete the CAPTCHA' }).waitFor();
      expect(await page.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe(
        `/events/${id}#rsvp-heading`,
      );
    } finally {
      await noScript.close();
    }
    const roster = await staff.request.get(`/api/admin/events/${id}/rsvps`);
    const names = JSON.stringify(await roster.json());
    expect(names).toContain(`Nell ${run}`);
    expect(names).not.toContain(`Ned ${run}`);
    // axe runs in the page, so the outcome pages are checked with scripts on.
    for (const path of ['/forms/rsvp/sent', '/forms/rsvp/waitlisted', '/forms/rsvp-cancel/sent']) {
      await staff.goto(path);
      await expectNoAxeViolations(staff);
    }
    await staff.close();
  }, 180_000);
});

describe('staff', () => {
  it('checks a person in from a phone-sized screen', async () => {
    const page = await browser.newPage('mobile');
    await signIn(page);
    await page.getByRole('tab', { name: 'Events Management' }).click();
    const list = page.getByRole('list', { name: 'Events' });
    await list.waitFor();
    // The event's own card (the list is paged, soonest first: page on until it is there).
    const card = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    const pager = page.getByRole('navigation', { name: 'Events pages' });
    for (let p = 2; p < 30 && (await card.count()) === 0 && (await pager.count()) > 0; p++) {
      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.getByText(`Page ${p} of`).waitFor();
      await card.or(list.getByRole('listitem').first()).first().waitFor();
    }
    const open = card.getByRole('button', { name: /RSVPs and check-in/ });
    if ((await open.count()) === 0)
      throw new Error(`No RSVP button for ${title}:\n${await list.ariaSnapshot().catch(() => '')}`);
    await open.click();
    const dialog = page.getByRole('dialog', { name: `RSVPs: ${title}` });
    await dialog
      .getByText('Going: 1 (1 seats with guests) · Capacity: 1 · Waitlisted: 1 · Checked in: 0')
      .waitFor({ timeout: 60_000 });
    const person = dialog
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: first.name }) });
    await person.getByRole('button', { name: /^Check in/ }).click();
    const undo = person.getByRole('button', { name: /^Undo check-in/ });
    await undo.waitFor({ timeout: 60_000 });
    expect(await undo.getAttribute('aria-pressed')).toBe('true');
    await dialog.getByText('Checked in: 1').waitFor();
    const box = await undo.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44); // a comfortable touch target
    await expectNoAxeViolations(page);
    await page.close();
  }, 180_000);
});

function decodePng(buffer: Buffer): string | null {
  const png = PNG.sync.read(buffer);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

describe('link builder', () => {
  it('gives a URL with the refcode and a QR code (SVG and PNG) that decodes to it', async () => {
    const page = await browser.newPage();
    await signIn(page, 'editor');
    await page.getByRole('tab', { name: 'Outreach Links' }).click();
    await page.getByRole('heading', { name: 'Outreach Links' }).waitFor();
    await page.getByLabel('Page').selectOption('donate');
    await page.getByLabel('Refcode').fill(`yard-sign-${run}`);
    await page.getByLabel('UTM source').fill('print');
    const link = page.getByLabel('Link', { exact: true });
    await page.locator('img[data-qr-code]').waitFor();
    const url = await link.inputValue();
    expect(new URL(url).pathname).toBe('/donate');
    expect(new URL(url).searchParams.get('refcode')).toBe(`yard-sign-${run}`);
    expect(new URL(url).searchParams.get('utm_source')).toBe('print');

    // The PNG download decodes to the URL.
    const pngHref = await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href');
    expect(pngHref).toMatch(/^data:image\/png;base64,/);
    expect(decodePng(Buffer.from(pngHref!.split(',')[1]!, 'base64'))).toBe(url);
    // The SVG, as the browser draws it, decodes to the URL too.
    expect(await page.getByRole('link', { name: 'Download SVG' }).getAttribute('download')).toBe(
      `qr-donate-yard-sign-${run}.svg`,
    );
    await page.locator('img[data-qr-code]').evaluate((img: HTMLImageElement) => img.decode());
    expect(decodePng(await page.locator('img[data-qr-code]').screenshot())).toBe(url);
    await expectNoAxeViolations(page);

    // A campaign name in Spanish: no error, the link and QR code stay, the value is carried encoded.
    await page.getByLabel('UTM campaign').fill('Año Nuevo 2027');
    await page.waitForFunction(() =>
      (document.querySelector<HTMLInputElement>('input[readonly]')?.value ?? '').includes('utm_campaign='),
    );
    const spanish = await link.inputValue();
    expect(spanish).toContain('utm_campaign=A%C3%B1o+Nuevo+2027');
    expect(new URL(spanish).searchParams.get('utm_campaign')).toBe('Año Nuevo 2027');
    expect(await page.getByLabel('UTM campaign').getAttribute('aria-invalid')).toBeNull();
    await page.waitForFunction(
      (u) => document.querySelector('a[download$=".png"]')?.getAttribute('href') !== u,
      pngHref,
    );
    const spanishPng = await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href');
    expect(decodePng(Buffer.from(spanishPng!.split(',')[1]!, 'base64'))).toBe(spanish);
    await expectNoAxeViolations(page);
    await page.close();
  });
});
