import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { SUPPORTER_COPY } from '../../src/content/supporter-page';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env';
import type { Lang } from '../../src/lib/lang';
import { expectNoAxeViolations } from './helpers/axe';
import { baseURL, buildURL, launchBrowser, type BrowserSession } from './helpers/browser';
import { PROD_BUILD_DONATION_URL } from './global-setup.ts';

/*
 * A supporter's own page (docs/decisions/182-supporter-page.md) on a phone-sized screen, in English and Spanish,
 * with JavaScript off and on: signed out it asks for an email; the emailed link's landing page signs in with its
 * button (a real form post answered 303 to the page); the page shows its sections, fits the phone, and its QR code
 * decodes to the owner's own /r/<code> link; a real form post stops emails. axe finds nothing in any state (a
 * state the page without JavaScript reaches is checked in a JavaScript page at the same address with the same
 * cookies: the server renders the same markup, and axe needs scripts).
 */

const run = Date.now().toString(36);
let seq = 0;
const post = (path: string, body: unknown) =>
  fetch(new URL(path, baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' },
    body: JSON.stringify(body),
  });

/**
 * What `pattern` captures in the newest message of the local outbox (as `npm run outbox` prints it) to `to`. The
 * sign-in link and code are sent after the response (Netlify's waitUntil), so the outbox is read until it is there.
 */
async function newestInOutbox(kind: 'email' | 'sms', to: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const { stdout } = await promisify(execFile)(process.execPath, ['scripts/outbox.mts', kind], {
          cwd: process.cwd(),
        });
        const message = stdout
          .split('─'.repeat(72))
          .reverse()
          .find((m) => m.includes(`to ${to}`));
        found = pattern.exec(message ?? '')?.[1];
        return found;
      },
      { message: `${kind === 'email' ? 'sign-in link emailed' : 'sign-in code texted'} to ${to}` },
    )
    .toBeTruthy();
  return found!;
}

/** The path and query of the newest sign-in link emailed to `email`. */
async function signinLinkFor(email: string): Promise<string> {
  const u = new URL(await newestInOutbox('email', email, /(https?:\/\/\S+\/my\/signin\?token=\S+)/));
  return `${u.pathname}${u.search}`;
}

/** The newest sign-in code texted to `e164`. */
const textedCodeTo = (e164: string): Promise<string> => newestInOutbox('sms', e164, /: (\d{6})\./);

/** A new supporter: a volunteer sign-up with an email and a phone of their own. */
async function newSupporter(lang: Lang, kind: string) {
  seq += 1;
  const email = `my-${lang}-${kind}-${run}@example.org`;
  const digits = String(((Date.now() + seq * 37) % 9000) + 1000);
  const signup = await post('/api/volunteers-sendgrid', {
    firstName: lang === 'en' ? 'Marisol' : 'Begoña',
    lastName: 'Broussard',
    email,
    phone: `504-559-${digits}`,
    address1: '1 Canal St',
    address2: '',
    city: 'New Orleans',
    state: 'LA',
    captchaResponse: TURNSTILE_TEST_TOKEN,
  });
  expect(signup.status, await signup.text()).toBe(201);
  return { email, phone: `504-559-${digits}`, e164: `+1504559${digits}` };
}

/** A new supporter and the sign-in link they asked for. */
async function supporterWithLink(lang: Lang, js: boolean): Promise<{ email: string; link: string }> {
  const { email } = await newSupporter(lang, js ? 'js' : 'nojs');
  expect((await post('/api/my/link', { email, lang })).status).toBe(200);
  return { email, link: await signinLinkFor(email) };
}

function decodePng(buffer: Buffer): string | null {
  const png = PNG.sync.read(buffer);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

/** Each test its own browser context: a session (a cookie) never reaches another test. */
const sessions: BrowserSession[] = [];
async function session(js: boolean): Promise<BrowserSession> {
  const s = await launchBrowser({ javaScriptEnabled: js });
  sessions.push(s);
  return s;
}
afterAll(async () => {
  for (const s of sessions) await s.close();
});

/** axe on the page's current state: in the page itself with JavaScript, else in a JavaScript page with its cookies. */
async function axeOf(page: Page, js: boolean) {
  if (js) return expectNoAxeViolations(page);
  const twin = await launchBrowser();
  try {
    await twin.context.addCookies(await page.context().cookies());
    const p = await twin.newPage('mobile');
    await p.goto(page.url());
    await expectNoAxeViolations(p);
  } finally {
    await twin.close();
  }
}

describe.each([
  ['en', false],
  ['en', true],
  ['es', false],
  ['es', true],
] as const)('My campaign (%s, JavaScript %s)', (lang, js) => {
  const words = SUPPORTER_COPY[lang].page;
  const prefix = lang === 'en' ? '' : '/es';

  it('signs in from the emailed link, shows the page with its QR code, and stops emails with a real form post', async () => {
    const { email, link } = await supporterWithLink(lang, js);
    expect(link.startsWith(`${prefix}/my/signin?token=`)).toBe(true);
    const page = await (await session(js)).newPage('mobile');

    // Signed out, the page asks for an email.
    await page.goto(`${prefix}/my`);
    await page.getByRole('button', { name: words.sendLink }).waitFor();
    await axeOf(page, js);

    // The link's landing page changes nothing; its button signs in, answered with a 303 to the page.
    await page.goto(link);
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    await axeOf(page, js);
    await Promise.all([
      page.waitForURL(`**${prefix}/my?done=signed-in`, { timeout: 45_000 }),
      page.getByRole('button', { name: words.signInButton }).click(),
    ]);
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    expect(await page.getByRole('status').innerText()).toBe(words.done['signed-in']);
    for (const h of [
      words.rsvpsHeading,
      words.planHeading,
      words.channelsHeading,
      words.inviteHeading,
      words.heldHeading,
      words.forgetHeading,
    ])
      await page.getByRole('heading', { name: h, level: 2 }).waitFor();
    expect(await page.locator('pre').innerText()).toContain(email);
    // The page fits the phone: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await axeOf(page, js);

    // The QR code, as the browser draws it, decodes to the owner's own invite link.
    const own = await page.request.get('/api/my/data');
    expect(own.status()).toBe(200);
    const code = ((await own.json()) as { invite: { code: string } }).invite.code;
    const qr = page.getByRole('img', { name: words.inviteQrAlt });
    await qr.evaluate((img: HTMLImageElement) => img.decode());
    const decoded = decodePng(await qr.screenshot());
    expect(decoded).toBe(await page.locator('section[aria-labelledby="my-invite"] code').innerText());
    expect(new URL(decoded!).pathname).toBe(`/r/${code}`);
    expect(await page.getByText(`${words.inviteDonations}: 0`).count()).toBe(1);

    // A friend who follows it on the production build (a donation provider configured) lands on the home page, and
    // the donate page's link to ActBlue carries the code as refcode2 (credited through the webhook:
    // tests/api/invite-credits.test.ts).
    const friendSession = await launchBrowser({ baseURL: buildURL });
    sessions.push(friendSession);
    const friend = await friendSession.newPage('mobile');
    await friend.goto(new URL(decoded!).pathname);
    expect(new URL(friend.url()).pathname).toBe('/');
    await friend.goto('/donate');
    await friend.waitForSelector('[data-donate][data-ready]', { state: 'attached' });
    const gift = new URL((await friend.locator('a[data-donate-link]').getAttribute('href'))!);
    expect(gift.href.startsWith(PROD_BUILD_DONATION_URL)).toBe(true);
    expect(gift.searchParams.get('refcode2')).toBe(`invite_${code}`);
    await friend.close();

    // A real form post stops emails and comes back to the page, which says so.
    await Promise.all([
      page.waitForURL(`**${prefix}/my?done=email-stopped`, { timeout: 45_000 }),
      page.getByRole('button', { name: `${words.stop}: ${words.email}` }).click(),
    ]);
    expect(await page.getByRole('status').innerText()).toBe(words.done['email-stopped']);
    expect(await page.getByText(`${words.email}: ${words.off}`).count()).toBe(1);
    await axeOf(page, js);

    // Signing out leaves the sign-in form.
    await Promise.all([
      page.waitForURL(`**${prefix}/my?done=signed-out`, { timeout: 45_000 }),
      page.getByRole('button', { name: words.signOut }).click(),
    ]);
    await page.getByRole('button', { name: words.sendLink }).waitFor();
    await axeOf(page, js);
    await page.close();
  }, 240_000);
});

describe.each([
  ['en', false],
  ['es', true],
] as const)('My campaign by a code by text (%s, JavaScript %s)', (lang, js) => {
  const words = SUPPORTER_COPY[lang].page;
  const prefix = lang === 'en' ? '' : '/es';

  it('asks for a code with the phone, and signs in with it', async () => {
    const { email, phone, e164 } = await newSupporter(lang, js ? 'code-js' : 'code-nojs');
    const page = await (await session(js)).newPage('mobile');
    await page.goto(`${prefix}/my`);
    await page.locator('#my-code-phone').fill(phone);
    await Promise.all([
      page.waitForURL(`**${prefix}/my?done=code-sent`, { timeout: 45_000 }),
      page.getByRole('button', { name: words.sendCode }).click(),
    ]);
    expect(await page.getByRole('status').innerText()).toBe(words.done['code-sent']);
    await axeOf(page, js);

    const code = await textedCodeTo(e164);
    await page.locator('#my-code-phone-again').fill(phone);
    await page.getByLabel(words.codeLabel).fill(code);
    await Promise.all([
      page.waitForURL(`**${prefix}/my?done=signed-in`, { timeout: 45_000 }),
      page.getByRole('button', { name: words.signInWithCode }).click(),
    ]);
    await page.getByRole('heading', { name: words.shiftsHeading, level: 2 }).waitFor();
    expect(await page.getByText(words.noShifts).count()).toBe(1);
    expect(await page.locator('pre').innerText()).toContain(email);
    await axeOf(page, js);
    await page.close();
  }, 240_000);
});
