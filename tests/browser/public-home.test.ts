import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe.ts';
import { launchBrowser, type BrowserSession } from './helpers/browser.ts';
import { carouselReady, hydrated, json, toast } from './helpers/public.ts';
import { candidate } from '../../src/content/campaign';
import { carouselVideos } from '../../src/content/home';
import { islandUi } from '../../src/content/ui';
import { fill } from '../../src/lib/fill';

let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('home carousel', () => {
  it('renders the first slide as static HTML, with its poster from the site', async () => {
    const res = await fetch(new URL('/', (await import('./helpers/browser.ts')).baseURL));
    const html = await res.text();
    expect(html).toContain('Donate Now');
    expect(html).toMatch(/aria-label="1 of 2"/);
    // The poster is the site's own image, sized, and the first one is fetched first. This is the dev server, which
    // encodes WebP alone (docs/decisions/162-public-pages-and-performance.md); the production build's AVIF files are
    // checked in caching.test.ts.
    const first = /<div[^>]*data-slide="0"[\s\S]*?<\/picture>/.exec(html)?.[0] ?? '';
    expect(first).toMatch(/<(source type="image\/(avif|webp)"|img)[^>]*srcset="[^"]+ \d+w/i);
    expect(first).toMatch(/<img[^>]*fetchpriority="high"/i);
    expect(first).toMatch(/<img[^>]*width="\d+"[^>]*height="\d+"/);
    expect(html).not.toMatch(/ytimg|youtube\.com\/vi|i\.ytimg/);
  });

  it('a poster that cannot load shows the designed fallback: the candidate and the slide title', async () => {
    const page = await browser.newPage('mobile');
    await page.route(
      (url) => /\/_image\b|\.(avif|webp|jpe?g)(\?|$)/.test(url.pathname + url.search),
      (route) => route.abort(),
    );
    await page.goto('/');
    const slide = page.locator('.hero-slide[data-slide="0"]');
    const fallback = slide.locator('.hero-poster-fallback');
    await expect.poll(() => fallback.isVisible()).toBe(true);
    expect(await fallback.textContent()).toContain(candidate.fullName);
    expect(await fallback.textContent()).toContain(carouselVideos[0]!.title);
    // The failed image has an empty alt: the browser draws nothing for it, never a broken-image icon.
    const img = slide.locator('img.hero-thumb');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete)).toBe(true);
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(0);
    expect(await img.getAttribute('alt')).toBe('');
    await page.close();
  });

  it('autoplays, pauses, and moves with Previous/Next', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await carouselReady(page);
    const carousel = page.locator('.hero-carousel');
    await expect.poll(() => carousel.getAttribute('data-autoplay')).toBe('on');
    await page.getByRole('button', { name: 'Pause slideshow' }).click();
    await expect.poll(() => carousel.getAttribute('data-autoplay')).toBe('off');
    await expect(page.getByRole('button', { name: 'Play slideshow' }).isVisible()).resolves.toBe(true);
    const current = () => page.locator('.hero-slide[aria-hidden="false"]').getAttribute('data-slide');
    // Autoplay may have moved on before the pause on a busy machine: the moves are checked from where it stopped.
    const start = Number(await current());
    const after = (n: number) => String((start + n + carouselVideos.length) % carouselVideos.length);
    await page.getByRole('button', { name: 'Next slide' }).click();
    await expect.poll(current).toBe(after(1));
    await page.getByRole('button', { name: 'Next slide' }).click();
    await expect.poll(current).toBe(after(2)); // loops
    await page.getByRole('button', { name: 'Previous slide' }).click();
    await expect.poll(current).toBe(after(1));
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('does not autoplay when reduced motion is preferred', async () => {
    const page = await browser.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await carouselReady(page);
    await page.waitForTimeout(300);
    expect(await page.locator('.hero-carousel').getAttribute('data-autoplay')).toBe('off');
    expect(await page.getByRole('button', { name: 'Play slideshow' }).count()).toBe(1);
    await page.close();
  });

  it('play swaps in the embedded player and stops autoplay', async () => {
    const page = await browser.newPage();
    await page.route('https://www.youtube-nocookie.com/**', (r) =>
      r.fulfill({ status: 200, contentType: 'text/html', body: '<title>player</title>' }),
    );
    await page.goto('/');
    await carouselReady(page);
    await page.locator('.hero-slide[data-slide="0"] .hero-play').click();
    const frame = page.locator('.hero-slide[data-slide="0"] iframe');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(
      /^https:\/\/www\.youtube-nocookie\.com\/embed\/.+\?autoplay=1$/,
    );
    // The player is named in the page's words (islandUi), with the video's title.
    expect(await frame.getAttribute('title')).toBe(fill(islandUi.videoPlayer, carouselVideos[0]!.title));
    // Played in place (Play is a link to the player for visitors without the script), focus on the player.
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    expect(await page.locator('.hero-carousel').getAttribute('data-autoplay')).toBe('off');
    // The played video stays a player after moving away and back.
    await page.getByRole('button', { name: 'Next slide' }).click();
    await page.getByRole('button', { name: 'Previous slide' }).click();
    expect(await page.locator('.hero-slide[data-slide="0"] iframe').count()).toBe(1);
    await page.close();
  });
});

describe('rotating texts', () => {
  it('the headline rotates on a timer, and its Pause control stops it (WCAG 2.2.2)', async () => {
    const page = await browser.newPage();
    // A fake clock: the 4 s rotation is checked by moving time, not by waiting for it.
    await page.clock.install();
    await page.goto('/');
    const headline = page.locator('#rotating-headline [data-rotating]');
    const index = () => headline.getAttribute('data-rotating-index');
    expect(await index()).toBe('0');
    const pause = page.getByRole('button', { name: 'Pause rotating headline' });
    await pause.waitFor();
    await page.clock.runFor(4_100);
    await expect.poll(index).toBe('1');
    await pause.click();
    const resume = page.getByRole('button', { name: 'Resume rotating headline' });
    await resume.waitFor();
    await page.clock.runFor(20_000);
    expect(await index()).toBe('1');
    await resume.click();
    await page.clock.runFor(4_100);
    await expect.poll(index).toBe('2');
    await page.close();
  });

  it('nothing rotates when reduced motion is preferred; the control offers Resume', async () => {
    const page = await browser.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await page.goto('/');
    await page.getByRole('button', { name: 'Resume rotating quote' }).waitFor();
    await page.clock.runFor(20_000);
    expect(await page.locator('#pledge-quote [data-rotating]').getAttribute('data-rotating-index')).toBe('0');
    await page.close();
  });
});

describe('text sign-up', () => {
  /** The consent checkbox (the local captcha widget is a checkbox too). */
  const consent = (form: ReturnType<Page['locator']>) =>
    form.getByRole('checkbox', { name: /By checking this box/ });

  async function open() {
    const page = await browser.newPage();
    await page.goto('/');
    await hydrated(page, 'TextSignupForm');
    return page;
  }

  it('validates in the spec order', async () => {
    const page = await open();
    const form = page.locator('#text-signup-form');
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('First name required');
    expect(await toast(page).textContent()).toContain('Please enter your first name.');
    await form.getByLabel('First Name').fill('Ann');
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('SMS consent required');
    expect(await toast(page).textContent()).toContain(
      'Please check the box to consent to receiving text messages.',
    );
    expect(await form.getByLabel('First Name').getAttribute('required')).not.toBeNull();
    expect(await consent(form).getAttribute('required')).not.toBeNull();
    expect(await consent(form).isChecked()).toBe(false);
    // Then the bot check (docs/decisions/151-texting.md), with the same message as the other forms.
    await consent(form).check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('Please complete the CAPTCHA');
    const privacy = form.getByRole('link', { name: /Privacy Policy/ });
    expect(await privacy.getAttribute('target')).toBe('_blank');
    expect(await privacy.getAttribute('rel')).toContain('noopener');
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('shows the busy state, then the confirmation', async () => {
    const page = await open();
    let body: Record<string, unknown> = {};
    await page.route('**/api/newsletter', (route) => {
      body = route.request().postDataJSON() as Record<string, unknown>;
      return json(route, 201, { message: "You're signed up for text messages!" }, 500);
    });
    const form = page.locator('#text-signup-form');
    await form.getByLabel('First Name').fill('Ann');
    await form.getByLabel('Phone').fill('504-555-0100');
    await consent(form).check();
    await form.getByLabel('I am human').check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    const busy = form.getByRole('button', { name: 'Signing Up...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await form.getByRole('heading', { name: "You're Signed Up!" }).waitFor();
    expect(await form.textContent()).toContain('STOP');
    await expect.poll(() => toast(page).textContent()).toContain('Successfully subscribed!');
    expect(body).toMatchObject({
      firstName: 'Ann',
      smsConsent: true,
      sourcePage: '/',
      captcha: 'XXXX.DUMMY.TOKEN.XXXX',
    });
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('keeps the form filled on failure', async () => {
    const page = await open();
    await page.route('**/api/newsletter', (route) => route.abort('failed'));
    const form = page.locator('#text-signup-form');
    await form.getByLabel('First Name').fill('Ann');
    await consent(form).check();
    await form.getByLabel('I am human').check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('Subscription failed');
    expect(await toast(page).textContent()).toContain('Please try again later');
    expect(await form.getByLabel('First Name').inputValue()).toBe('Ann');
    await page.unroute('**/api/newsletter');
    await page.route('**/api/newsletter', (route) =>
      json(route, 400, { error: 'Please enter a valid phone number', fields: {} }),
    );
    // Captcha tokens are single use: the widget asks again after every attempt.
    expect(await form.getByLabel('I am human').isChecked()).toBe(false);
    await form.getByLabel('I am human').check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    await expect.poll(() => toast(page).textContent()).toContain('Please enter a valid phone number');
    await page.close();
  });

  it('signs up against the real endpoint', async () => {
    const page = await open();
    const form = page.locator('#text-signup-form');
    await form.getByLabel('First Name').fill('Real');
    await form.getByLabel('Email').fill(`real-${Date.now()}@example.org`);
    await consent(form).check();
    await form.getByLabel('I am human').check();
    await form.getByRole('button', { name: 'Sign Up For Text Messages' }).click();
    await form.getByRole('heading', { name: "You're Signed Up!" }).waitFor({ timeout: 20_000 });
    await page.close();
  });
});
