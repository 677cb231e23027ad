import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { electionLines } from '../../src/content/election-lines';
import { localizedPath } from '../../src/lib/lang-paths';
import { FUTURE_CALENDAR } from '../helpers/election';
import { buildURL, launchBrowser, type BrowserSession } from './helpers/browser';
import { hydrateAll } from './helpers/public';
import {
  axeWithoutScripts,
  expectPlanPage,
  fillPlan,
  firstEarlyDay,
  LANGS,
  planWords,
  stopThenVoted,
} from './helpers/vote-plan';

/*
 * The election as the site says it, in Chromium (docs/decisions/157-election-calendar.md). The site under test
 * has its election ahead (FUTURE_CALENDAR, global-setup.ts), built at a known moment. Here: the build's stage copy
 * is in the built pages' HTML (JavaScript off) and unchanged once every island has hydrated (JavaScript on); and the
 * plan to vote with JavaScript off, in both languages (docs/decisions/158-plan-to-vote.md): refused posts come back
 * with the form filled in and each field's error, then the plan's own page, its calendar file, "Stop my reminders"
 * and "I voted". plan-to-vote.test.ts does the same with JavaScript on; tests/pages/election-pages.test.ts walks
 * every other stage through the real page components.
 */

const buildNow = new Date(inject('buildNow'));
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

describe('make a plan to vote, JavaScript off', () => {
  it.each(LANGS)(
    '%s: refused posts come back with the form filled in and each field’s error; then the plan, its calendar file, stop and "I voted"',
    async (lang) => {
      const w = planWords(lang);
      const page = await noJs.newPage();
      await page.goto(localizedPath('/vote', lang));
      await axeWithoutScripts(page, js);

      // No captcha: the refused page, the form again with what was typed and the captcha's error.
      let form = await fillPlan(page, lang, `nojs-${lang}`, { human: false });
      await form.getByRole('button', { name: w.plan.submit }).click();
      await page.waitForURL(`**${localizedPath('/forms/vote-plan', lang)}?outcome=*`);
      form = page.locator('form[data-plan-form]');
      expect(await form.getByLabel(w.plan.name).inputValue()).toBe(`Voter nojs-${lang}`);
      expect(await form.getByLabel(w.plan.day).inputValue()).toBe(firstEarlyDay);
      expect(await form.locator('input[name="emailConsent"]').isChecked()).toBe(true);
      expect(await page.locator('#plan-captcha-error').innerText()).toBe(w.plan.errors.captcha);
      await axeWithoutScripts(page, js);

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
      await axeWithoutScripts(page, js);

      // Mended: the plan's own page.
      await phone.fill('');
      await page.locator('form[data-plan-form]').getByLabel(w.human).check();
      await page.locator('form[data-plan-form]').getByRole('button', { name: w.plan.submit }).click();
      await page.waitForURL(`**${localizedPath('/vote/plan', lang)}?id=*`);
      const planUrl = page.url();
      // The plan page's markup is the same with JavaScript on: plan-to-vote.test.ts runs axe on its states.
      await expectPlanPage(page, lang);
      await stopThenVoted(page, lang, planUrl);
      await page.close();
    },
  );
});
