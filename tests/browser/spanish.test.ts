import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_CONSENT } from '../../src/content/consent';
import { copyFor } from '../../src/content/copy';
import { expectNoAxeViolations } from './helpers/axe';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { hydrated, toast } from './helpers/public';
import { spanishRoutes } from './helpers/routes';

/*
 * Issue 12: the public site in Spanish. Every Spanish route answers with
 * lang="es", its Spanish heading, reciprocal hreflang links and a canonical of
 * its own; the switcher lands on the same page in the other language (with and
 * without JavaScript) and the choice is remembered; a Spanish form validates
 * in Spanish; an unknown path under /es/ gets the Spanish not-found page.
 */

const es = copyFor('es');
const en = copyFor('en');

let browser: BrowserSession;
let noJs: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
  noJs = await launchBrowser({ javaScriptEnabled: false });
});
afterAll(async () => {
  await browser?.close();
  await noJs?.close();
});

describe('every Spanish route', () => {
  it.each(spanishRoutes)('$path answers $status in Spanish with reciprocal hreflang', async (route) => {
    const page = await browser.newPage();
    const response = await page.goto(route.path);
    expect(response?.status()).toBe(route.status);
    await expect.poll(() => page.locator('h1').allInnerTexts()).toEqual([route.h1]);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('footer [data-paid-for]').innerText()).toBe(es.campaign.paidForDisclaimer);
    expect(await page.locator('.skip-link').innerText()).toBe(es.ui.layoutCopy.skipLink);

    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical && new URL(canonical).pathname).toBe(route.path);
    if (route.status !== 200) {
      await page.close();
      return;
    }
    const alternates = Object.fromEntries(
      await page
        .locator('link[rel="alternate"][hreflang]')
        .evaluateAll((links) => links.map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')])),
    ) as Record<string, string>;
    const english = route.path.replace(/^\/es/, '') || '/';
    expect(Object.keys(alternates).sort()).toEqual(['en', 'es', 'x-default']);
    expect(new URL(alternates.es!).pathname).toBe(route.path);
    expect(new URL(alternates.en!).pathname).toBe(english);
    expect(alternates['x-default']).toBe(alternates.en);

    // Reciprocal: the English page lists the same two versions.
    const back = await browser.newPage();
    await back.goto(english);
    expect(await back.locator('html').getAttribute('lang')).toBe('en');
    expect(
      new URL((await back.locator('link[rel="alternate"][hreflang="es"]').getAttribute('href'))!).pathname,
    ).toBe(route.path);
    await back.close();
    await page.close();
  });
});

describe('language switcher', () => {
  for (const [label, session] of [
    ['with JavaScript', () => browser],
    ['without JavaScript', () => noJs],
  ] as const) {
    it(`lands on the same page in the other language, both ways (${label})`, async () => {
      const page = await session().newPage();
      await page.goto('/platform');
      const toSpanish = page.locator('a.lang-switch--bar');
      expect(await toSpanish.getAttribute('lang')).toBe('es');
      expect(await toSpanish.innerText()).toBe('Español');
      await toSpanish.click();
      await page.waitForURL('**/es/platform');
      expect(await page.locator('h1').innerText()).toBe(es.platform.platformIntro.heading);
      const toEnglish = page.locator('a.lang-switch--bar');
      expect(await toEnglish.getAttribute('lang')).toBe('en');
      expect(await toEnglish.innerText()).toBe('English');
      await toEnglish.click();
      await page.waitForURL((url) => url.pathname === '/platform');
      expect(await page.locator('h1').innerText()).toBe(en.platform.platformIntro.heading);
      await page.close();
    });
  }

  it('is in the mobile drawer too, and links the same page', async () => {
    const page = await browser.newPage('mobile');
    await page.goto('/es/contact');
    await page.getByRole('button', { name: es.ui.headerCopy.menu, exact: true }).click();
    const link = page.locator('#nav-drawer a.lang-switch');
    await link.waitFor();
    expect(await link.getAttribute('lang')).toBe('en');
    expect(new URL(await link.evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe('/contact');
    await page.close();
  });

  it('remembers the choice: the next English page offers Spanish, never redirects, and can be dismissed', async () => {
    const session = await launchBrowser();
    const page = await session.newPage();
    await page.goto('/about');
    const offer = page.locator('[data-lang-offer]');
    expect(await offer.isVisible()).toBe(false);
    await page.locator('a.lang-switch--bar').click();
    await page.waitForURL('**/es/about');
    // A later visit to an English page stays English and offers the Spanish page.
    await page.goto('/donate');
    expect(new URL(page.url()).pathname).toBe('/donate');
    await offer.waitFor({ state: 'visible' });
    expect(await offer.getAttribute('lang')).toBe('es');
    expect(new URL(await offer.locator('a').evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe(
      '/es/donate',
    );
    await expectNoAxeViolations(page);
    await offer.getByRole('button', { name: es.ui.layoutCopy.offerDismiss }).click();
    expect(await offer.isVisible()).toBe(false);
    await page.goto('/platform');
    expect(await offer.isVisible()).toBe(false);
    await session.close();
  });
});

describe('Spanish forms', () => {
  it('the text sign-up validates in Spanish, shows the Spanish consent and posts lang=es', async () => {
    const page = await browser.newPage();
    await page.goto('/es');
    await hydrated(page, 'TextSignupForm');
    const form = page.locator('#text-signup-form');
    const words = es.ui.formUi;
    expect(await form.locator('input[name="lang"]').inputValue()).toBe('es');
    expect((await form.locator('.consent-text').innerText()).replace(/\s+/g, ' ')).toContain(
      SMS_CONSENT.es.text.slice(0, 60),
    );
    expect(await form.getByRole('link', { name: words.privacyPolicy }).getAttribute('href')).toBe(
      '/es/privacy-policy',
    );
    await form.getByRole('button', { name: words.textSignup.submit }).click();
    await expect.poll(() => toast(page).textContent()).toContain(words.textSignup.firstNameTitle);
    expect(await toast(page).textContent()).toContain(words.textSignup.firstNameText);
    await form.getByLabel(words.firstName).fill('Ana');
    await form.getByRole('button', { name: words.textSignup.submit }).click();
    await expect.poll(() => toast(page).textContent()).toContain(words.textSignup.consentTitle);
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('the volunteer and contact forms carry lang=es and Spanish labels', async () => {
    const page = await browser.newPage();
    await page.goto('/es/volunteer');
    const volunteer = page.locator('#volunteer-form');
    expect(await volunteer.locator('input[name="lang"]').inputValue()).toBe('es');
    await volunteer.getByLabel(es.ui.formUi.mobile).waitFor();
    // Interests are stored under their English names, shown in Spanish.
    const first = volunteer.getByLabel(es.volunteer.helpAreas[0]!.title);
    expect(await first.getAttribute('value')).toBe(en.volunteer.helpAreas[0]!.title);
    await page.goto('/es/contact');
    const contact = page.locator('#contact-form');
    expect(await contact.locator('input[name="lang"]').inputValue()).toBe('es');
    // The message box is labelled in Spanish (its label also carries the required mark).
    const message = contact.locator('textarea[name="message"]');
    const label = await contact.locator(`label[for="${await message.getAttribute('id')}"]`).innerText();
    expect(label.trim().startsWith(es.ui.formUi.message)).toBe(true);
    await page.close();
  });
});

describe('Spanish not-found and dates', () => {
  it('an unknown path under /es/ is the Spanish 404 with a way home in Spanish', async () => {
    const page = await browser.newPage();
    const response = await page.goto('/es/no-existe');
    expect(response?.status()).toBe(404);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('h1').innerText()).toBe(es.pages.notFoundCopy.heading);
    const home = page.getByRole('link', { name: es.pages.notFoundCopy.homeLink });
    expect(new URL(await home.evaluate((a) => (a as HTMLAnchorElement).href)).pathname).toBe('/es');
    await page.close();
  });

  it('dates read in es-US and the legal pages say they are translations', async () => {
    const page = await browser.newPage();
    await page.goto('/es/terms-of-use');
    expect(await page.locator('time').first().innerText()).toBe('17 de septiembre de 2025');
    expect(await page.locator('[data-translation-note]').innerText()).toBe(es.ui.legalCopy.translationNote);
    expect(await page.locator('footer').innerText()).toContain('11 de octubre de 2025');
    await page.close();
  });
});
