import { afterAll, describe, expect, it } from 'vitest';
import VotePage from '../../src/components/pages/VotePage.astro';
import VotePlanPage from '../../src/components/pages/VotePlanPage.astro';
import { copyFor } from '../../src/content/copy';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { planDayLabel, planLines } from '../../src/content/vote-plan-lines';
import { LANGS } from '../../src/lib/lang';
import type { PlanPageData } from '../../src/lib/server/public/plan-page';
import { PLAN_METHODS, planDays } from '../../src/lib/vote-plan';
import { at, render, restore } from './render';

/*
 * A plan belongs to its voter (docs/decisions/158-plan-to-vote.md): the plan's own page is where a stop is undone
 * and the plan changed. Rendered by its own component in English and Spanish, as a visitor with JavaScript off reads
 * it: "Resume my reminders" and "Change my plan" are plain POST forms to the update endpoint carrying the link's
 * id; the /vote form says, for everyone alike, that an earlier plan is changed from its own page.
 */

const cal = defaultElectionCalendar;
const moment = new Date('2025-09-29T10:00:00-05:00'); // early voting, Monday, in New Orleans
const LINK = 'RosaPlanLink-000000001';
afterAll(restore);

function stoppedPlan(lang: (typeof LANGS)[number]): PlanPageData {
  const days = planDays(cal, moment);
  const plan = { round: 'primary' as const, day: days[1]!.date, method: 'in-person' as const };
  return {
    state: 'ok',
    linkId: LINK,
    plan: {
      day: plan.day,
      method: plan.method,
      timeOfDay: 'evening',
      bringing: null,
      name: 'Rosa Parker',
      votedAt: null,
      stoppedAt: '2025-09-28T15:00:00.000Z',
    },
    reminders: { sms: true, email: false },
    lines: planLines(cal, plan, lang, `plan-primary-${LINK}`),
    change: {
      days: days.map((d) => ({ date: d.date, label: planDayLabel(d, lang) })),
      methods: PLAN_METHODS.filter((m) => planDays(cal, moment, m).length > 0),
    },
  };
}

describe('the plan page after "Stop my reminders", JavaScript off, both languages', () => {
  it.each(LANGS)('%s: a Resume button and a Change form post the link’s id; no Stop button', async (lang) => {
    at(cal, moment);
    const page = copyFor(lang).vote.planCopy.page;
    const data = stoppedPlan(lang);
    const doc = await render(VotePlanPage, '/vote/plan', lang, { lang, data });
    const forms = [...doc.querySelectorAll('form')].filter(
      (f) => f.getAttribute('action') === '/api/vote-plan/update',
    );
    const actionOf = (f: Element) => f.querySelector('input[name="action"]')?.getAttribute('value');
    expect(forms.map(actionOf).sort()).toEqual(['change', 'resume', 'voted']);
    for (const f of forms) {
      expect(f.getAttribute('method')).toBe('post');
      expect(f.querySelector('input[name="id"]')?.getAttribute('value')).toBe(LINK);
      expect(f.querySelector('input[name="lang"]')?.getAttribute('value')).toBe(lang);
    }
    const resume = forms.find((f) => actionOf(f) === 'resume')!;
    expect(resume.querySelector('button[type="submit"]')?.textContent?.trim()).toBe(page.resumeButton);

    const change = forms.find((f) => actionOf(f) === 'change')!;
    expect(doc.querySelector('#plan-change-heading')?.textContent?.trim()).toBe(page.changeHeading);
    expect(change.querySelector('select[name="day"] option[selected]')?.getAttribute('value')).toBe(
      planDays(cal, moment)[1]!.date,
    );
    expect(
      [...change.querySelectorAll('select[name="day"] option')].map((o) => o.getAttribute('value')),
    ).toEqual(planDays(cal, moment).map((d) => d.date));
    expect(change.querySelector('select[name="method"] option[selected]')?.getAttribute('value')).toBe(
      'in-person',
    );
    expect(change.querySelector('select[name="timeOfDay"] option[selected]')?.getAttribute('value')).toBe(
      'evening',
    );
    // Every control has its label.
    for (const control of change.querySelectorAll('select'))
      expect(doc.querySelector(`label[for="${control.id}"]`)?.textContent?.trim()).toBeTruthy();
    expect(change.querySelector('button[type="submit"]')?.textContent?.trim()).toBe(page.changeSubmit);
    expect(doc.body.textContent).toContain(page.stoppedText);
    expect(doc.body.textContent).not.toContain(page.stopButton);
  });

  it.each(LANGS)(
    '%s: the /vote form tells everyone an earlier plan changes from its own page',
    async (lang) => {
      at(cal, moment);
      const doc = await render(VotePage, '/vote', lang);
      expect(doc.querySelector('form[data-plan-form] [data-plan-own-note]')?.textContent?.trim()).toBe(
        copyFor(lang).vote.planCopy.ownPlanNote,
      );
    },
  );
});
