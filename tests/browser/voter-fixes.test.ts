import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { copyFor } from '../../src/content/copy.ts';
import { IDENTITY } from '../../src/content/identity.ts';
import type { Lang } from '../../src/lib/lang.ts';
import { expectNoAxeViolations } from './helpers/axe.ts';
import {
  baseURL,
  buildURL,
  launchBrowser,
  type BrowserSession,
  type ViewportName,
} from './helpers/browser.ts';
import { devAdminCookie, hydrated, toast } from './helpers/public.ts';

/*
 * What a voter tripped over (the docs/decisions/new-w2- records): each check here fails without its fix.
 */
let js: BrowserSession;
let noJs: BrowserSession;
beforeAll(async () => {
  js = await launchBrowser();
  noJs = await launchBrowser({ javaScriptEnabled: false });
});
afterAll(async () => {
  await js?.close();
  await noJs?.close();
});

const manual = (url: string) => fetch(url, { redirect: 'manual' });

describe('a URL with a trailing slash (docs/decisions/162-public-pages-and-performance.md)', () => {
  it.each([
    ['/about/', '/about'],
    ['/blog/', '/blog'],
    ['/es/', '/es'],
    ['/es/about/', '/es/about'],
    ['/contact/?ref=flyer', '/contact?ref=flyer'],
  ])('the dev server answers %s with 301 to %s', async (from, to) => {
    const res = await manual(new URL(from, baseURL).href);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(to);
  });

  it('the production build answers it too (its function: tests/unit/ssr-trailing-slash.test.ts)', async () => {
    const res = await manual(new URL('/about/', buildURL).href);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/about');
  });

  it('a person following a printed /about/ lands on the page, with or without JavaScript', async () => {
    for (const session of [js, noJs]) {
      const page = await session.newPage('mobile');
      const response = await page.goto('/es/about/');
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/es/about');
      await page.close();
    }
  });
});

const LANGS_AND_SIZES: [Lang, ViewportName][] = [
  ['en', 'mobile'],
  ['en', 'desktop'],
  ['es', 'mobile'],
  ['es', 'desktop'],
];
/**
 * Where the width is the point (a scroll, a toast that fades, a submission a resize would not redo) and the
 * language is copy in one template: each width once and each language once, English at a phone and Spanish at a
 * laptop. What a check leaves out (English at a laptop, Spanish at a phone) runs the template code the check keeps
 * at that width, and that language's copy is checked at the other width (docs/decisions/163-tests.md, "Less work
 * per check").
 */
const EACH_LANG_AND_SIZE_ONCE: [Lang, ViewportName][] = [
  ['en', 'mobile'],
  ['es', 'desktop'],
];
const LANGS: Lang[] = ['en', 'es'];
const at = (lang: Lang, path: string) => (lang === 'es' ? `/es${path}` : path);
/** The two widths: a 390 px phone and a 1366 px laptop. */
const SIZES = { mobile: { width: 390, height: 844 }, desktop: { width: 1366, height: 768 } } as const;
const SIZE_NAMES = Object.keys(SIZES) as ViewportName[];
async function open(session: BrowserSession, size: ViewportName) {
  const page = await session.newPage();
  await page.setViewportSize(SIZES[size]);
  return page;
}

/**
 * axe on a page opened with scripts off: axe needs timers, which do not run in such a page, so the same
 * HTML (its scripts removed, so it stays as served) is checked in a page of the scripts-on context, at the
 * page's own width or at each of `sizes` in turn (one load, resized: the layout is CSS media queries).
 */
async function expectNoAxeViolationsWithoutScripts(page: Page, sizes?: ViewportName[]) {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, '');
  const url = page.url();
  const probe = await js.newPage();
  await probe.setViewportSize(page.viewportSize() ?? SIZES.mobile);
  await probe.route(url, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
  await probe.goto(url);
  for (const size of sizes ?? [null]) {
    if (size) await probe.setViewportSize(SIZES[size]);
    await expectNoAxeViolations(probe);
  }
  await probe.close();
}

/** axe at each of the widths on the page as it is (one load, resized). */
async function expectNoAxeViolationsAtEachSize(page: Page) {
  for (const size of SIZE_NAMES) {
    await page.setViewportSize(SIZES[size]);
    await page.evaluate(() => new Promise(requestAnimationFrame));
    await expectNoAxeViolations(page);
  }
}

/**
 * A page brought to a state once per language and looked at at each width: the submission renders the same code
 * at both widths, so the page one width's test submitted is resized for the other's (docs/decisions/163-tests.md,
 * "Less work per check"). Made by whichever of the language's tests runs first, at its width; closed after the file.
 */
const sharedPages: Page[] = [];
function oncePerLang(make: (lang: Lang, size: ViewportName) => Promise<Page>) {
  const made = new Map<Lang, Promise<Page>>();
  return async (lang: Lang, size: ViewportName): Promise<Page> => {
    let page = made.get(lang);
    if (!page) {
      page = make(lang, size).then((p) => (sharedPages.push(p), p));
      made.set(lang, page);
    }
    const p = await page;
    await p.setViewportSize(SIZES[size]);
    return p;
  };
}
afterAll(async () => {
  for (const page of sharedPages) await page.close();
});

describe('contact: the server field errors are shown on their fields (docs/decisions/159-public-forms.md)', () => {
  async function fill(page: Page, email: string) {
    const form = page.locator('#contact-form');
    await form.locator('input[name="name"]').fill('An Nguyen');
    await form.locator('input[name="email"]').fill(email);
    await form.locator('select[name="subject"]').selectOption('press');
    await form.locator('textarea[name="message"]').fill('Hello campaign');
    await form.locator('input[type="checkbox"][name="captcha"]').check();
    return form;
  }

  const submitted = oncePerLang(async (lang, size) => {
    const page = await open(js, size);
    await page.goto(at(lang, '/contact'));
    await hydrated(page, 'ContactForm');
    const form = await fill(page, 'an.nguyen@example');
    await form.locator('button[type="submit"]').click();
    return page;
  });

  it.each(LANGS_AND_SIZES)(
    '%s at %s: an address the browser lets through is marked by the server',
    async (lang, size) => {
      const words = copyFor(lang).ui.formUi;
      const page = await submitted(lang, size);
      const form = page.locator('#contact-form');
      const email = form.locator('input[name="email"]');
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
      expect(await form.locator('.field-error').allInnerTexts()).toEqual([words.fields.email]);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
        .toBe('email');
      expect(
        await form
          .getByRole('alert')
          .filter({
            hasText: lang === 'en' ? 'Please enter a valid email address' : words.volunteer.checkForm,
          })
          .count(),
      ).toBeGreaterThan(0);
      // Not the "try again later" toast: trying again would not help.
      expect(await toast(page).count()).toBe(0);
      expect(await form.locator('textarea[name="message"]').inputValue()).toBe('Hello campaign');
      await expectNoAxeViolations(page);
    },
  );
});

describe('a text sign-up with a first name only is told texts need a phone (docs/decisions/151-texting.md)', () => {
  async function fillNameOnly(page: Page) {
    const form = page.locator('#text-signup-form form');
    await form.locator('input[name="firstName"]').fill('Solo');
    await form.locator('input[name="smsConsent"]').check();
    // The local test captcha (scripts on); without scripts the post is held to the no-script budget instead.
    const captcha = form.locator('input[type="checkbox"][name="captcha"]');
    if (await captcha.count()) await captcha.check();
    return form;
  }

  // The toast fades: a submission per width, each language once (EACH_LANG_AND_SIZE_ONCE).
  it.each(EACH_LANG_AND_SIZE_ONCE)(
    '%s at %s, with JavaScript: a toast and the phone field marked',
    async (lang, size) => {
      const words = copyFor(lang).ui.formUi;
      const page = await open(js, size);
      await page.goto(at(lang, '/'));
      await hydrated(page, 'TextSignupForm');
      const form = await fillNameOnly(page);
      await form.locator('button[type="submit"]').click();
      await expect.poll(() => toast(page).textContent()).toContain(words.textSignup.failure);
      expect(await toast(page).textContent()).toContain(words.textSignup.phoneNeeded);
      const phone = form.locator('input[name="phone"]');
      expect(await phone.getAttribute('aria-invalid')).toBe('true');
      expect(await form.locator('.field-error').allInnerTexts()).toEqual([words.textSignup.phoneNeeded]);
      expect(
        await page.getByText(copyFor(lang).forms.formCopy['text-signup'].outcomes.sent.heading).count(),
      ).toBe(0);
      await expectNoAxeViolations(page);
      await page.close();
    },
  );

  const refusedWithoutScripts = oncePerLang(async (lang, size) => {
    const page = await open(noJs, size);
    await page.goto(at(lang, '/'));
    const form = await fillNameOnly(page);
    await Promise.all([
      page.waitForURL(/\/forms\/text-signup\?outcome=/),
      form.locator('button[type="submit"]').click(),
    ]);
    return page;
  });

  it.each(LANGS_AND_SIZES)(
    '%s at %s, without JavaScript: the form comes back with the message on the phone field',
    async (lang, size) => {
      const words = copyFor(lang).ui.formUi;
      const page = await refusedWithoutScripts(lang, size);
      expect(page.url()).toMatch(/\/forms\/text-signup\?outcome=/);
      const again = page.locator('#form-again form');
      expect(await again.locator('input[name="phone"]').getAttribute('aria-invalid')).toBe('true');
      expect(await again.locator('.field-error').allInnerTexts()).toContain(words.textSignup.phoneNeeded);
      expect(await again.locator('input[name="firstName"]').inputValue()).toBe('Solo');
      await expectNoAxeViolationsWithoutScripts(page);
    },
  );
});

async function fillVolunteer(page: Page, extra: Record<string, string> = {}, { captcha = true } = {}) {
  const form = page.locator('#volunteer-form form');
  const values: Record<string, string> = {
    firstName: 'Vera',
    lastName: 'Volunteer',
    email: `vera-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.org`,
    phone: '504-555-0101',
    address1: '1 Main St',
    city: 'New Orleans',
    ...extra,
  };
  for (const [name, value] of Object.entries(values)) await form.locator(`input[name="${name}"]`).fill(value);
  await form.locator('select[name="state"]').selectOption('LA');
  const box = form.locator('input[type="checkbox"][name="captchaResponse"]');
  if (captcha && (await box.count())) await box.check();
  return { form, values };
}

describe('after a volunteer sign-up, focus and scroll move to the thank-you card (docs/decisions/159-public-forms.md)', () => {
  // Where the card lands is the width's (the sticky header's height): each width once, each language once.
  it.each(EACH_LANG_AND_SIZE_ONCE)('%s at %s', async (lang, size) => {
    const sent = copyFor(lang).forms.formCopy.volunteer.outcomes.sent;
    const page = await open(js, size);
    await page.goto(at(lang, '/volunteer'));
    await hydrated(page, 'VolunteerForm');
    const { form } = await fillVolunteer(page);
    await form.locator('button[type="submit"]').click();
    const heading = page.getByRole('heading', { name: sent.heading });
    await heading.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''))
      .toBe(sent.heading);
    // The card's heading is on screen, below the sticky header.
    await expect
      .poll(() =>
        heading.evaluate((h) => {
          // Visible where a person looks: inside the viewport and not under the sticky header.
          const { top, bottom, left, width } = h.getBoundingClientRect();
          const seen = document.elementFromPoint(left + Math.min(width, 40) / 2, top + 2);
          const visible = top >= 0 && bottom <= window.innerHeight && Boolean(seen && h.contains(seen));
          return visible
            ? 'visible'
            : JSON.stringify({
                top,
                bottom,
                inner: window.innerHeight,
                scrollY,
                seen: seen?.outerHTML.slice(0, 80),
              });
        }),
      )
      .toBe('visible');
    await expectNoAxeViolations(page);
    await page.close();
  });
});

describe('the volunteer form has an optional ZIP, carried to the staff CSV (docs/decisions/159-public-forms.md)', () => {
  let cookie = '';
  async function csvRowOf(email: string): Promise<Record<string, string> | undefined> {
    cookie ||= await devAdminCookie();
    const res = await fetch(
      new URL(`/api/admin/volunteers?format=csv&q=${encodeURIComponent(email)}`, baseURL),
      {
        headers: { Cookie: cookie },
      },
    );
    const [header, ...rows] = (await res.text()).split('\r\n').filter(Boolean);
    const names = header!.split(',');
    const row = rows.find((r) => r.includes(email));
    return row ? Object.fromEntries(row.split(',').map((v, i) => [names[i]!, v])) : undefined;
  }

  // Two submissions a check (a refusal, then the sign-up): each width once, each language once.
  it.each(EACH_LANG_AND_SIZE_ONCE)(
    '%s at %s, with JavaScript: a bad ZIP is marked, a good one is kept',
    async (lang, size) => {
      const words = copyFor(lang).ui.formUi;
      const page = await open(js, size);
      await page.goto(at(lang, '/volunteer'));
      await hydrated(page, 'VolunteerForm');
      const zip = page.locator('#volunteer-form').getByLabel(words.zip);
      expect(await zip.getAttribute('autocomplete')).toBe('postal-code');
      expect(await zip.getAttribute('inputmode')).toBe('numeric');
      expect(await zip.getAttribute('required')).toBeNull();
      const { form, values } = await fillVolunteer(page, { zip: '7011' });
      await form.locator('button[type="submit"]').click();
      await expect.poll(() => zip.getAttribute('aria-invalid')).toBe('true');
      expect(await form.locator('.field-error').allInnerTexts()).toEqual([words.fields.zip]);
      await expectNoAxeViolations(page);
      await zip.fill('70117');
      const captcha = form.locator('input[type="checkbox"][name="captchaResponse"]');
      if (await captcha.count()) await captcha.check();
      await form.locator('button[type="submit"]').click();
      await page
        .getByRole('heading', { name: copyFor(lang).forms.formCopy.volunteer.outcomes.sent.heading })
        .waitFor();
      expect((await csvRowOf(values.email!))?.zip).toBe('70117');
      await page.close();
    },
  );

  it('without JavaScript, the ZIP is posted with the form, refilled after a refusal, and lands in the CSV', async () => {
    const page = await noJs.newPage('mobile');
    await page.goto('/es/volunteer');
    const { form, values } = await fillVolunteer(page, { zip: '70119' }, { captcha: false });
    // Without scripts the first post has no captcha token: refused, and the form comes back filled in.
    await Promise.all([
      page.waitForURL(/\/forms\/volunteer\?outcome=/),
      form.locator('button[type="submit"]').click(),
    ]);
    const again = page.locator('#form-again form');
    expect(await again.locator('input[name="zip"]').inputValue()).toBe('70119');
    await expectNoAxeViolationsWithoutScripts(page);
    await again.locator('input[type="checkbox"][name="captchaResponse"]').check();
    await Promise.all([
      page.waitForURL(/\/forms\/volunteer\/sent/),
      again.locator('button[type="submit"]').click(),
    ]);
    await expect.poll(async () => (await csvRowOf(values.email!))?.zip).toBe('70119');
    await page.close();
  });
});

describe('/contact lists every upcoming public event, in the HTML (docs/decisions/162-public-pages-and-performance.md)', () => {
  async function upcoming(lang: Lang): Promise<{ id: number; title: string }[]> {
    const res = await fetch(new URL(lang === 'en' ? '/api/events' : `/api/events?lang=${lang}`, baseURL));
    return ((await res.json()) as { events: { id: number; title: string }[] }).events;
  }

  // The list is the HTML as served, the same at any width: one load per language, axe at each width.
  it.each(LANGS)(
    `%s, scripts off: every event, more than the blog shows (axe at ${SIZE_NAMES.join(' and ')} width)`,
    async (lang) => {
      // Other test files add events while this runs: the page lists every event listed both before and after.
      const before = await upcoming(lang);
      expect(before.length).toBeGreaterThan(0);
      const page = await open(noJs, SIZE_NAMES[0]!);
      await page.goto(at(lang, '/contact#events'));
      const after = await upcoming(lang);
      const both = before.filter((e) => after.some((a) => a.id === e.id));
      const either = [...before, ...after].map((e) => e.id);
      const section = page.locator('section[aria-labelledby="events"]');
      expect(await section.locator('h2').innerText()).toBe(copyFor(lang).ui.contactPageCopy.eventsHeading);
      const shown = await section
        .locator('[data-event-id]')
        .evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-event-id'))));
      for (const e of both) expect(shown, `event ${e.id}`).toContain(e.id);
      for (const id of shown) expect(either).toContain(id);
      // More than the blog's three (the seed alone has six upcoming public events).
      expect(shown.length).toBeGreaterThan(3);
      const titles = await section.locator('h3').allInnerTexts();
      for (const e of both) expect(titles).toContain(e.title);
      // The list is in the HTML as served: no island, no script needed.
      expect(await section.locator('astro-island').count()).toBe(0);
      await expectNoAxeViolationsWithoutScripts(page, SIZE_NAMES);
      await page.close();
    },
  );

  // Where the list lands is the width's: each width once, each language once.
  it.each(EACH_LANG_AND_SIZE_ONCE)(
    "%s at %s: the blog's View All Events lands on that list",
    async (lang, size) => {
      const page = await open(js, size);
      await page.goto(at(lang, '/blog'));
      const label = copyFor(lang).pages.blogCopy.viewAllEvents.label;
      await Promise.all([
        page.waitForURL(/\/contact#events$/),
        page.getByRole('link', { name: label }).click(),
      ]);
      const heading = page.locator('#events');
      await expect
        .poll(() =>
          heading.evaluate((h) => {
            const r = h.getBoundingClientRect();
            return r.top >= 0 && r.top < window.innerHeight;
          }),
        )
        .toBe(true);
      await page.close();
    },
  );
});

describe("donations not configured: the donate page gives the committee's mailing address (docs/decisions/165-donations.md)", () => {
  // The notice is the HTML as served, the same at any width: one load per language, axe at each width.
  it.each(LANGS)(`%s, scripts off (axe at ${SIZE_NAMES.join(' and ')} width)`, async (lang) => {
    const page = await open(noJs, SIZE_NAMES[0]!);
    await page.goto(at(lang, '/donate'));
    const notice = page.locator('.notice--warn');
    expect(await notice.innerText()).toContain(copyFor(lang).ui.islandUi.donationsNotConfigured);
    expect(await notice.innerText()).toContain(
      copyFor(lang).ui.donatePageCopy.byCheck(IDENTITY.committeeName),
    );
    const address = notice.locator('address');
    expect((await address.innerText()).split('\n').map((l) => l.trim())).toEqual([
      IDENTITY.committeeName,
      IDENTITY.address.street,
      `${IDENTITY.address.city}, ${IDENTITY.address.stateCode} ${IDENTITY.address.zip}`,
    ]);
    await expectNoAxeViolationsWithoutScripts(page, SIZE_NAMES);
    await page.close();
  });
});

describe('the home page first screen on a phone is not mostly empty navy (docs/decisions/162-public-pages-and-performance.md)', () => {
  // One load per language and scripts on or off, measured at each width in turn: the hero's height is CSS media
  // queries (no script reads the window's size), so the page resized is the page opened at that width.
  for (const session of ['js', 'noJs'] as const)
    it.each(LANGS)(
      `%s at ${SIZE_NAMES.join(' then ')}, ${session === 'js' ? 'scripts on' : 'scripts off'}`,
      async (lang) => {
        const page = await open(session === 'js' ? js : noJs, SIZE_NAMES[0]!);
        await page.goto(at(lang, '/'));
        const measure = () =>
          page.evaluate(() => {
            const slide = document.querySelector('.hero-slide[aria-hidden="false"]')!;
            const buttons = slide.querySelector('.hero-content .cta-row')!.getBoundingClientRect();
            const hero = document.querySelector('.hero')!.getBoundingClientRect();
            const next = document.querySelector('#summary-heading, .hero + section')!.getBoundingClientRect();
            return {
              below: hero.bottom - buttons.bottom,
              heroBottom: hero.bottom,
              nextTop: next.top,
              screen: innerHeight,
            };
          });
        for (const size of SIZE_NAMES) {
          await page.setViewportSize(SIZES[size]);
          const m = await measure();
          expect(m.screen, size).toBe(SIZES[size].height);
          if (size === 'mobile') {
            // Under the buttons: the room the carousel's controls need, not most of a screen of navy.
            expect(m.below, size).toBeLessThan(m.screen * 0.15);
            // And the page goes on within the first screen.
            expect(m.nextTop, size).toBeLessThan(m.screen);
          } else {
            // Wide screens keep the full-screen poster.
            expect(m.heroBottom, size).toBeGreaterThanOrEqual(m.screen * 0.9);
          }
        }
        await (session === 'js'
          ? expectNoAxeViolationsAtEachSize(page)
          : expectNoAxeViolationsWithoutScripts(page, SIZE_NAMES));
        await page.close();
      },
    );
});
