import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { copyFor } from '../../../src/content/copy.ts';
import type { Lang } from '../../../src/lib/lang.ts';
import { localizedPath } from '../../../src/lib/lang-paths.ts';
import { FUTURE_CALENDAR } from '../../helpers/election.ts';
import { expectNoAxeViolations } from './axe.ts';
import type { BrowserSession } from './browser.ts';

/*
 * The plan to vote in Chromium (docs/decisions/158-plan-to-vote.md), shared by vote.test.ts (JavaScript off) and
 * plan-to-vote.test.ts (JavaScript on): the site under test has its election ahead (FUTURE_CALENDAR, global-setup.ts).
 */

export const LANGS: Lang[] = ['en', 'es'];
export const stamp = Date.now().toString(36);
export const firstEarlyDay = FUTURE_CALENDAR.primary.earlyVoting[0]!.date;

/** The form's words and the plan page's, in a language. */
export function planWords(lang: Lang) {
  const { vote, ui, forms } = copyFor(lang);
  return { plan: vote.planCopy, human: ui.formUi.captchaHuman, outcomes: forms.formCopy['vote-plan-update'] };
}

/**
 * axe on a page a context with JavaScript off shows. axe runs in the page, which such a context cannot finish (its
 * timers never run): the same markup, its scripts removed and its <noscript> contents unwrapped (as a browser
 * without JavaScript shows them), is served at the same address to a page of `withJs` and checked there.
 */
export async function axeWithoutScripts(page: Page, withJs: BrowserSession): Promise<void> {
  const url = page.url();
  const markup = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<\/?noscript>/gi, '');
  const copy = await withJs.newPage();
  await copy.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: markup }));
  await copy.goto(url);
  await expectNoAxeViolations(copy);
  await copy.close();
}

/** Fills the plan form on the page: the first early-voting day, in person, in the evening, reminded by email. */
export async function fillPlan(
  page: Page,
  lang: Lang,
  who: string,
  over: { phone?: string; human?: boolean } = {},
) {
  const w = planWords(lang);
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

/**
 * The plan page the browser is on (made by `fillPlan`): what it says, never the contact's phone or email, and that
 * its calendar file downloads. `axe`: check it with axe (its markup is the same with JavaScript on and off).
 */
export async function expectPlanPage(page: Page, lang: Lang, { axe = false } = {}) {
  const w = planWords(lang);
  expect(new URL(page.url()).pathname).toBe(localizedPath('/vote/plan', lang));
  expect(await page.locator('[data-plan-state]').getAttribute('data-plan-state')).toBe('active');
  const main = await page.locator('main').innerText();
  expect(main).toContain(w.plan.page.saved);
  expect(main).toContain(w.plan.times.evening);
  expect(main).toContain('My neighbor');
  expect(await page.locator(`main time[datetime="${firstEarlyDay}"]`).count()).toBe(1);
  expect(main).not.toContain('@example.org');
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
  if (axe) await expectNoAxeViolations(page);
}

/** "Stop my reminders", "Resume my reminders", stop again, then "I voted", from the plan page at `planUrl`: each lands on its outcome page. */
export async function stopThenVoted(page: Page, lang: Lang, planUrl: string, { axe = false } = {}) {
  const w = planWords(lang);
  await page.getByRole('button', { name: w.plan.page.stopButton }).click();
  await page.waitForURL(`**${localizedPath('/forms/vote-plan-update/stopped', lang)}`);
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(w.outcomes.outcomes.stopped.heading);
  await page.goto(planUrl);
  expect(await page.locator('[data-plan-state]').getAttribute('data-plan-state')).toBe('stopped');
  expect(await page.locator('main').innerText()).toContain(w.plan.page.stoppedText);
  expect(await page.getByRole('button', { name: w.plan.page.stopButton }).count()).toBe(0);
  if (axe) await expectNoAxeViolations(page);
  // Only this page undoes the stop (docs/decisions/158-plan-to-vote.md): "Resume my reminders", then stop again.
  await page.getByRole('button', { name: w.plan.page.resumeButton }).click();
  await page.waitForURL(`**${localizedPath('/forms/vote-plan-update/resumed', lang)}`);
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(w.outcomes.outcomes.resumed.heading);
  await page.goto(planUrl);
  expect(await page.locator('[data-plan-state]').getAttribute('data-plan-state')).toBe('active');
  await page.getByRole('button', { name: w.plan.page.stopButton }).click();
  await page.waitForURL(`**${localizedPath('/forms/vote-plan-update/stopped', lang)}`);
  await page.goto(planUrl);
  await page.getByRole('button', { name: w.plan.page.votedButton }).click();
  await page.waitForURL(`**${localizedPath('/forms/vote-plan-update/voted', lang)}`);
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(w.outcomes.outcomes.voted.heading);
  await page.goto(planUrl);
  expect(await page.locator('[data-plan-state]').getAttribute('data-plan-state')).toBe('voted');
  expect(await page.locator('main').innerText()).toContain(w.plan.page.votedText);
  expect(await page.getByRole('button', { name: w.plan.page.votedButton }).count()).toBe(0);
  if (axe) await expectNoAxeViolations(page);
}
