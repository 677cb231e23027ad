import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { copyFor } from '../../src/content/copy';
import { electionLines } from '../../src/content/election-lines';
import type { Lang } from '../../src/lib/lang';
import { localizedPath } from '../../src/lib/lang-paths';
import { FUTURE_CALENDAR } from '../helpers/election';
import { expectNoAxeViolations } from './helpers/axe';
import { buildURL, launchBrowser, type BrowserSession } from './helpers/browser';
import { hydrateAll, hydrated } from './helpers/public';

/*
 * The election as the site says it, in Chromium (docs/decisions/114-walking-the-calendar.md). The site under test
 * has its election ahead (FUTURE_CALENDAR, global-setup.ts), built at a known moment. Here: the build's stage copy
 * is in the built pages' HTML (JavaScript off) and unchanged once every island has hydrated (JavaScript on); and the
 * plan to vote end to end, JavaScript on and off, in both languages: the form, refused posts with their field
 * errors, the plan's own page, its calendar file, "Stop my reminders" and "I voted", axe on each state, and the
 * whole plan made and marked voted by keyboard alone. tests/pages/election-pages.test.ts walks every other stage
 * through the real page components.
 */

const buildNow = new Date(inject('buildNow'));
const LANGS: Lang[] = ['en', 'es'];
let noJs: BrowserSession;
let js: BrowserSession;
let builtNoJs: BrowserSession;
let builtJs: BrowserSession;
beforeAll(async () => {
  [noJs, js, builtNoJs, builtJs] = await Promise.all([
    launchBrowser({ javaScriptEnabled: false }),
    launchBrowser(),
    launchBrowser({ javaScriptEnabled: false, baseURL: buildURL }),
    launchBrowser({ baseURL: buildURL }),
  ]);
});
afterAll(async () => {
  await Promise.all([noJs, js, builtNoJs, builtJs].map((b) => b?.close()));
});

/** The stage copy a page shows: the stage line with its countdown, the footer's dates, the Contact FAQ. */
const STAGE_COPY = ['.election-now p', '.stage', '.footer-dates', '.faq'];
const stageCopy = (page: Page) =>
  page.evaluate(
    (selectors) =>
      selectors.map((s) => (document.querySelector(s)?.textContent ?? '').replace(/\s+/g, ' ').trim()),
    STAGE_COPY,
  );

describe('the build’s stage, JavaScript off and on', () => {
  it.each(LANGS)(
    '%s: home, /vote and Contact say it in their HTML, and hydration changes none of it',
    async (lang) => {
      const lines = electionLines(FUTURE_CALENDAR, buildNow, lang);
      expect(lines.stage.kind).toBe('registration-open');
      const stageLine = `${lines.headline} ${lines.countdown}`;
      const expected: Record<string, (copy: string[]) => void> = {
        '/': ([home, , footer]) => {
          expect(home).toBe(stageLine);
          for (const l of lines.footer) expect(footer).toContain(`${l.label} ${l.value}`);
        },
        '/vote': ([, vote]) => expect(vote).toBe(stageLine),
        '/contact': ([, , , faq]) => expect(faq).toContain(lines.faqAnswer),
      };
      for (const [path, check] of Object.entries(expected)) {
        const off = await builtNoJs.newPage();
        await off.goto(localizedPath(path, lang));
        const html = await stageCopy(off);
        check(html);
        await off.close();

        const on = await builtJs.newPage();
        await on.goto(localizedPath(path, lang));
        await hydrateAll(on);
        await on.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect(await stageCopy(on), `${path} after hydration`).toEqual(html);
        await on.close();
      }
    },
  );
});

/**
 * axe on the page as it is now, with JavaScript on or off. axe runs in the page, which a context with JavaScript off
 * cannot do: its DOM (<noscript> content shown, no script run) is checked in a page with JavaScript that serves that
 * same markup at the same address, without its scripts and with the <noscript> contents unwrapped.
 */
async function axe(page: Page): Promise<void> {
  if (page.context() !== noJs.context) return expectNoAxeViolations(page);
  const url = page.url();
  const markup = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<\/?noscript>/gi, '');
  const copy = await js.newPage();
  await copy.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: markup }));
  await copy.goto(url);
  await expectNoAxeViolations(copy);
  await copy.close();
}

const stamp = Date.now().toString(36);
const firstEarlyDay = FUTURE_CALENDAR.primary.earlyVoting[0]!.date;
const electionDay = FUTURE_CALENDAR.primary.electionDay.date;

/** The form's words and the plan page's, in a language. */
function wordsIn(lang: Lang) {
  const { vote, ui, forms } = copyFor(lang);
  return { plan: vote.planCopy, human: ui.formUi.captchaHuman, outcomes: forms.formCopy['vote-plan-update'] };
}

async function fillPlan(page: Page, lang: Lang, who: string, over: { phone?: string; human?: boolean } = {}) {
  const w = wordsIn(lang);
  const form = page.locator('form[data-plan-form]');
  await form.getByLabel(w.plan.day).selectOption(firstEarlyDay);
  await form.getByLabel(w.plan.method).selectOption('in-person');
  await form.getByLabel(w.plan.timeOfDay).selectOption('evening');
  await form.getByLabel(w.plan.bringing).fill('My neighbor');
  await form.getByLabel(w.plan.name).fill(`Voter ${who}`);
  await form.getByLabel(w.plan.phone).fill(over.phone ?? '');
  await form.getByLabel(w.plan.email, { exact: true }).fill(`plan-${who}-${stamp}@example.org`);
  await form.locator('input[name="emailConsent"]').check();
  const human = form.getByLabel(w.human);
  if (over.human === false) {
    if (await human.count()) await human.uncheck();
  } else await human.check();
  return form;
}

/** The plan page the browser is on: its state, what it says, and that its calendar file downloads. */
async function expectPlanPage(page: Page, lang: Lang) {
  const w = wordsIn(lang);
  expect(new URL(page.url()).pathname).toBe(localizedPath('/vote/plan', lang));
  expect(await page.locator('[data-plan-state]').getAttribute('data-plan-state')).toBe('active');
  const main = await page.locator('main').innerText();
  expect(main).toContain(w.plan.page.saved);
  expect(main).toContain(w.plan.times.evening);
  expect(main).toContain('My neighbor');
  expect(await page.locator(`main time[datetime="${firstEarlyDay}"]`).count()).toBe(1);
  // Never the contact's phone or email.
  expect(main).not.toContain(`@example.org`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: w.plan.page.addToCalendar }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`plan-to-vote-${firstEarlyDay}.ics`);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  const ics = Buffer.concat(chunks).toString('utf8');
  expect(ics).toMatch(/^BEGIN:VCALENDAR/);
  expect(ics).toContain(`DTSTART;TZID=America/Chicago:${firstEarlyDay.replaceAll('-', '')}T`);
  await axe(page);
}

/** "Stop my reminders", then "I voted", from the plan page at `planUrl`: each lands on its outcome page. */
async function stopThenVoted(page: Page, lang: Lang, planUrl: string) {
  const w = wordsIn(lang);
  await page.getByRole('button', { name: w.plan.page.stopButton }).click();
  await page.waitForURL(`**${localizedPath('/forms/vote-plan-update/stopped', lang)}`);
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(w.outcomes.outcomes.stopped.heading);
  await page.goto(planUrl);
  expect(await page.locator('[data-plan-state]').getAttribute('data-plan-state')).toBe('stopped');
  expect(await page.locator('main').innerText()).toContain(w.plan.page.stoppedText);
  expect(await page.getByRole('button', { name: w.plan.page.stopButton }).count()).toBe(0);
  await axe(page);
  await page.getByRole('button', { name: w.plan.page.votedButton }).click();
  await page.waitForURL(`**${localizedPath('/forms/vote-plan-update/voted', lang)}`);
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(w.outcomes.outcomes.voted.heading);
  await page.goto(planUrl);
  expect(await page.locator('[data-plan-state]').getAttribute('data-plan-state')).toBe('voted');
  expect(await page.locator('main').innerText()).toContain(w.plan.page.votedText);
  expect(await page.getByRole('button', { name: w.plan.page.votedButton }).count()).toBe(0);
  await axe(page);
}

describe('make a plan to vote, JavaScript off', () => {
  it.each(LANGS)(
    '%s: refused posts come back with the form filled in and each field’s error; then the plan, its calendar file, stop and "I voted"',
    async (lang) => {
      const w = wordsIn(lang);
      const page = await noJs.newPage();
      await page.goto(localizedPath('/vote', lang));
      await axe(page);

      // No captcha: the refused page, the form again with what was typed and the captcha's error.
      let form = await fillPlan(page, lang, `nojs-${lang}`, { human: false });
      await form.getByRole('button', { name: w.plan.submit }).click();
      await page.waitForURL(`**${localizedPath('/forms/vote-plan', lang)}?outcome=*`);
      form = page.locator('form[data-plan-form]');
      expect(await form.getByLabel(w.plan.name).inputValue()).toBe(`Voter nojs-${lang}`);
      expect(await form.getByLabel(w.plan.day).inputValue()).toBe(firstEarlyDay);
      expect(await form.locator('input[name="emailConsent"]').isChecked()).toBe(true);
      expect(await page.locator('#plan-captcha-error').innerText()).toBe(w.plan.errors.captcha);
      await axe(page);

      // A bad phone: refused on the phone field, in the page's language.
      await form.getByLabel(w.plan.phone).fill('12');
      await form.getByLabel(w.human).check();
      await form.getByRole('button', { name: w.plan.submit }).click();
      await page.waitForURL(`**${localizedPath('/forms/vote-plan', lang)}?outcome=*`);
      const phone = page.locator('form[data-plan-form]').getByLabel(w.plan.phone);
      expect(await phone.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${await phone.getAttribute('aria-describedby')}`).innerText()).toBe(
        w.plan.errors.phone,
      );
      await axe(page);

      // Mended: the plan's own page.
      await phone.fill('');
      await page.locator('form[data-plan-form]').getByLabel(w.human).check();
      await page.locator('form[data-plan-form]').getByRole('button', { name: w.plan.submit }).click();
      await page.waitForURL(`**${localizedPath('/vote/plan', lang)}?id=*`);
      const planUrl = page.url();
      await expectPlanPage(page, lang);
      await stopThenVoted(page, lang, planUrl);
      await page.close();
    },
  );
});

describe('make a plan to vote, JavaScript on', () => {
  it.each(LANGS)(
    '%s: the island asks for the captcha, shows the server’s field error on its field, then goes to the plan page',
    async (lang) => {
      const w = wordsIn(lang);
      const page = await js.newPage();
      await page.goto(localizedPath('/vote', lang));
      await hydrated(page, 'PlanToVoteForm');
      const form = await fillPlan(page, lang, `js-${lang}`, { human: false, phone: '12' });
      await form.getByRole('button', { name: w.plan.submit }).click();
      const alert = form.locator('[data-form-alert]');
      await expect.poll(() => alert.innerText()).toBe(w.plan.errors.captcha);
      expect(new URL(page.url()).pathname).toBe(localizedPath('/vote', lang));

      await form.getByLabel(w.human).check();
      await form.getByRole('button', { name: w.plan.submit }).click();
      const phone = form.getByLabel(w.plan.phone);
      await expect.poll(() => phone.getAttribute('aria-invalid')).toBe('true');
      expect(await form.locator('#plan-phone-error').innerText()).toBe(w.plan.errors.phone);
      expect(new URL(page.url()).pathname).toBe(localizedPath('/vote', lang));
      await axe(page);

      await phone.fill('');
      // The captcha is single use: the island reset it after the refused post.
      expect(await form.getByLabel(w.human).isChecked()).toBe(false);
      await form.getByLabel(w.human).check();
      await form.getByRole('button', { name: w.plan.submit }).click();
      await page.waitForURL(`**${localizedPath('/vote/plan', lang)}?id=*`);
      const planUrl = page.url();
      await expectPlanPage(page, lang);
      await stopThenVoted(page, lang, planUrl);
      await page.close();
    },
  );

  it('by keyboard alone: every field in order, the boxes by Space, sent by Enter; "I voted" by Enter', async () => {
    const w = wordsIn('en');
    const page = await js.newPage();
    await page.goto('/vote');
    await hydrated(page, 'PlanToVoteForm');
    await page.locator('#plan-day').focus();
    // The captcha's box has an id React makes up: it is named by its label instead.
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        if (el instanceof HTMLInputElement && el.closest('[data-captcha-slot]')) return 'captcha';
        return el?.id || (el?.textContent ?? '').trim();
      });
    const order: string[] = [];
    const step = async (act?: () => Promise<void>) => {
      order.push(await focused());
      await act?.();
      await page.keyboard.press('Tab');
    };
    await step(() => page.keyboard.press('ArrowDown')); // day: the second day
    await step(); // method: in person
    await step(() => page.keyboard.press('ArrowDown')); // time of day: morning
    await step(() => page.keyboard.type('My neighbor'));
    await step(() => page.keyboard.type(`Voter keys-${stamp}`));
    await step(); // phone: none
    await step(() => page.keyboard.type(`plan-keys-${stamp}@example.org`));
    await step(); // text reminders: no
    await step(() => page.keyboard.press('Space')); // email reminders: yes
    await step(() => page.keyboard.press('Space')); // the local captcha
    order.push(await focused());
    expect(order).toEqual([
      'plan-day',
      'plan-method',
      'plan-time',
      'plan-bringing',
      'plan-name',
      'plan-phone',
      'plan-email',
      'plan-sms',
      'plan-email-consent',
      'captcha',
      w.plan.submit,
    ]);
    const form = page.locator('form[data-plan-form]');
    expect(await form.locator('#plan-day').inputValue()).toBe(FUTURE_CALENDAR.primary.earlyVoting[1]!.date);
    expect(await form.locator('#plan-time').inputValue()).toBe('morning');
    expect(await form.locator('#plan-email-consent').isChecked()).toBe(true);
    expect(await form.locator('#plan-sms').isChecked()).toBe(false);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/vote/plan?id=*');
    await page.getByRole('button', { name: w.plan.page.votedButton }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/forms/vote-plan-update/voted');
    await page.close();
  });
});

describe('the plan page’s other states', () => {
  it('a link that is no plan’s and a plan for Election Day (the polling-place lookup), in both languages', async () => {
    const page = await noJs.newPage();
    for (const lang of LANGS) {
      const w = wordsIn(lang);
      const res = await page.goto(localizedPath(`/vote/plan?id=${'B'.repeat(22)}`, lang));
      expect(res?.status()).toBe(404);
      expect(await page.locator('main').innerText()).toContain(w.plan.page.badLink);
      await axe(page);
    }
    // The seeded demo plan is for the calendar's Election Day: the page links the polling-place lookup.
    await page.goto('/vote/plan?id=DemoPlanToVote-Link001');
    expect(await page.locator(`main time[datetime="${electionDay}"]`).count()).toBe(1);
    expect(
      await page.getByRole('link', { name: copyFor('en').vote.voteCopy.pollingPlace.label }).count(),
    ).toBe(1);
    await page.close();
  });
});
