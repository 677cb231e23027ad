import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFor } from '../../src/content/copy';
import { localizedPath } from '../../src/lib/lang-paths';
import { FUTURE_CALENDAR } from '../helpers/election';
import { expectNoAxeViolations } from './helpers/axe';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { hydrated } from './helpers/public';
import { expectPlanPage, fillPlan, LANGS, planWords, stamp, stopThenVoted } from './helpers/vote-plan';

/*
 * Make a plan to vote with JavaScript on, in both languages (docs/decisions/158-plan-to-vote.md): the island asks
 * for the captcha and shows the server's field errors in place, then goes to the plan's own page; its calendar file,
 * "Stop my reminders" and "I voted", axe on every state; the whole plan made and marked voted by keyboard alone; the
 * plan page's other states. vote.test.ts does the same with JavaScript off.
 */

let js: BrowserSession;
beforeAll(async () => {
  js = await launchBrowser();
});
afterAll(async () => {
  await js?.close();
});

const electionDay = FUTURE_CALENDAR.primary.electionDay.date;

describe('make a plan to vote, JavaScript on', () => {
  it.each(LANGS)(
    '%s: the island asks for the captcha, shows the server’s field error on its field, then goes to the plan page',
    async (lang) => {
      const w = planWords(lang);
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
      await expectNoAxeViolations(page);

      await phone.fill('');
      // The captcha is single use: the island reset it after the refused post.
      expect(await form.getByLabel(w.human).isChecked()).toBe(false);
      await form.getByLabel(w.human).check();
      await form.getByRole('button', { name: w.plan.submit }).click();
      await page.waitForURL(`**${localizedPath('/vote/plan', lang)}?id=*`);
      const planUrl = page.url();
      await expectPlanPage(page, lang, { axe: true });
      await stopThenVoted(page, lang, planUrl, { axe: true });
      await page.close();
    },
  );

  it('by keyboard alone: every field in order, the boxes by Space, sent by Enter; "I voted" by Enter', async () => {
    const w = planWords('en');
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
    await step(async () => {
      // From "Choose a day": the second day.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
    });
    await step(() => page.keyboard.press('ArrowDown')); // method: in person
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
    expect(await form.locator('#plan-method').inputValue()).toBe('in-person');
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
    const page = await js.newPage();
    for (const lang of LANGS) {
      const w = planWords(lang);
      const res = await page.goto(localizedPath(`/vote/plan?id=${'B'.repeat(22)}`, lang));
      expect(res?.status()).toBe(404);
      expect(await page.locator('main').innerText()).toContain(w.plan.page.badLink);
      await expectNoAxeViolations(page);
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
