import { afterAll, describe, expect, it } from 'vitest';
import ContactPage from '../../src/components/pages/ContactPage.astro';
import FormRefusedPage from '../../src/components/pages/FormRefusedPage.astro';
import DonatePage from '../../src/components/pages/DonatePage.astro';
import EventPage from '../../src/components/pages/EventPage.astro';
import HomePage from '../../src/components/pages/HomePage.astro';
import VolunteerPage from '../../src/components/pages/VolunteerPage.astro';
import VotePage from '../../src/components/pages/VotePage.astro';
import { copyFor } from '../../src/content/copy';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { electionLines } from '../../src/content/election-lines';
import { planDayLabel } from '../../src/content/vote-plan-lines';
import type { ElectionCalendar, StageKind } from '../../src/lib/election-stage';
import type { Lang } from '../../src/lib/lang';
import { planDays } from '../../src/lib/vote-plan';
import { RUNOFF_2025 } from '../helpers/election';
import { at, render, restore, textOf } from './render';

/*
 * The calendar walked through the real pages (docs/decisions/157-election-calendar.md): at each stage of the
 * seeded 2025 election, each post-election mode and a runoff (whose Election Day falls after the end of daylight
 * saving time), the home page, its footer and navigation, the Contact FAQ and /vote are rendered by their own
 * components, in English and Spanish, and their HTML (what a visitor with JavaScript off reads) must say what the
 * stage says. tests/unit/election-lines.test.ts and election-walk.test.ts check the words themselves; here, that
 * the pages show them. tests/browser/vote.test.ts checks the build's own stage in Chromium, JavaScript on and off.
 */

const cal: ElectionCalendar = defaultElectionCalendar;
const runoff: ElectionCalendar = { ...cal, mode: 'runoff', runoff: RUNOFF_2025 };
const cdt = (local: string) => new Date(`${local}:00-05:00`);
const cst = (local: string) => new Date(`${local}:00-06:00`);

interface Moment {
  name: string;
  calendar: ElectionCalendar;
  when: Date;
  kind: StageKind;
  /** The stage line as a voter reads it, in each language. */
  headline: Record<Lang, string>;
}

const MOMENTS: Moment[] = [
  {
    name: 'before registration closes',
    calendar: cal,
    when: cdt('2025-09-08T12:00'),
    kind: 'registration-open',
    headline: {
      en: 'Register to vote by September 20, 2025, then make a plan to vote.',
      es: 'Inscríbase para votar antes del 20 de septiembre de 2025 y haga un plan para votar.',
    },
  },
  {
    name: 'the last minute of online registration',
    calendar: cal,
    when: cdt('2025-09-20T23:58'),
    kind: 'registration-open',
    headline: {
      en: 'Register to vote by September 20, 2025, then make a plan to vote.',
      es: 'Inscríbase para votar antes del 20 de septiembre de 2025 y haga un plan para votar.',
    },
  },
  {
    name: 'registration closed',
    calendar: cal,
    when: cdt('2025-09-21T00:00'),
    kind: 'registration-closed',
    headline: {
      en: 'Registration has closed. Early voting starts September 27, 2025.',
      es: 'La inscripción ha cerrado. La votación anticipada empieza el 27 de septiembre de 2025.',
    },
  },
  {
    name: 'the first day of early voting',
    calendar: cal,
    when: cdt('2025-09-27T10:00'),
    kind: 'early-voting',
    headline: {
      en: 'Early voting is open today, 8:30 AM to 6:00 PM.',
      es: 'La votación anticipada está abierta hoy, de 8:30 a.m. a 6:00 p.m.',
    },
  },
  {
    name: 'the first day of early voting, after its close',
    calendar: cal,
    when: cdt('2025-09-27T18:00'),
    kind: 'early-voting',
    headline: {
      en: 'Early voting continues September 29, 2025.',
      es: 'La votación anticipada continúa el 29 de septiembre de 2025.',
    },
  },
  {
    name: 'the Sunday without early voting',
    calendar: cal,
    when: cdt('2025-09-28T12:00'),
    kind: 'early-voting',
    headline: {
      en: 'Early voting continues September 29, 2025.',
      es: 'La votación anticipada continúa el 29 de septiembre de 2025.',
    },
  },
  {
    name: 'the last early-voting day, a minute before it closes',
    calendar: cal,
    when: cdt('2025-10-04T17:59'),
    kind: 'early-voting',
    headline: {
      en: 'Early voting is open today, 8:30 AM to 6:00 PM.',
      es: 'La votación anticipada está abierta hoy, de 8:30 a.m. a 6:00 p.m.',
    },
  },
  {
    name: 'the final days (the mail-ballot return deadline)',
    calendar: cal,
    when: cdt('2025-10-10T16:30'),
    kind: 'final-days',
    headline: {
      en: 'Early voting is over. Polls are open on October 11, 2025 from 7:00 AM to 8:00 PM.',
      es: 'La votación anticipada terminó. Las urnas abren el 11 de octubre de 2025 de 7:00 a.m. a 8:00 p.m.',
    },
  },
  {
    name: 'Election Day before the polls open',
    calendar: cal,
    when: cdt('2025-10-11T06:59'),
    kind: 'final-days',
    headline: {
      en: 'Early voting is over. Polls are open on October 11, 2025 from 7:00 AM to 8:00 PM.',
      es: 'La votación anticipada terminó. Las urnas abren el 11 de octubre de 2025 de 7:00 a.m. a 8:00 p.m.',
    },
  },
  {
    name: 'Election Day, a minute before the polls close',
    calendar: cal,
    when: cdt('2025-10-11T19:59'),
    kind: 'polls-open',
    headline: {
      en: 'Polls are open today until 8:00 PM. If you are in line by 8:00 PM, you can vote.',
      es: 'Las urnas están abiertas hoy hasta las 8:00 p.m. Si está en la fila a las 8:00 p.m., puede votar.',
    },
  },
  {
    name: 'Election Day, the polls closed',
    calendar: cal,
    when: cdt('2025-10-11T20:00'),
    kind: 'polls-closed',
    headline: {
      en: 'Polls have closed. Results are being counted.',
      es: 'Las urnas han cerrado. Se están contando los votos.',
    },
  },
  {
    name: 'the morning after, no outcome chosen',
    calendar: cal,
    when: cdt('2025-10-12T09:00'),
    kind: 'results',
    headline: {
      en: 'The election was held on October 11, 2025. Thank you for voting.',
      es: 'La elección se celebró el 11 de octubre de 2025. Gracias por votar.',
    },
  },
  {
    name: 'won',
    calendar: { ...cal, mode: 'won' },
    when: cdt('2025-10-12T09:00'),
    kind: 'results',
    headline: {
      en: 'We won. Thank you to every voter and volunteer: now the work begins.',
      es: 'Ganamos. Gracias a cada votante y voluntario: ahora empieza el trabajo.',
    },
  },
  {
    name: 'lost',
    calendar: { ...cal, mode: 'lost' },
    when: cdt('2025-10-12T09:00'),
    kind: 'results',
    headline: {
      en: 'The votes are counted and this time we came up short. Thank you for everything you gave this campaign.',
      es: 'Los votos están contados y esta vez no alcanzó. Gracias por todo lo que dio a esta campaña.',
    },
  },
  {
    name: 'campaign ended',
    calendar: { ...cal, mode: 'ended' },
    when: cdt('2025-10-12T09:00'),
    kind: 'results',
    headline: {
      en: 'The campaign has ended. Thank you for being part of it.',
      es: 'La campaña ha terminado. Gracias por formar parte de ella.',
    },
  },
  {
    name: 'a runoff: its registration',
    calendar: runoff,
    when: cdt('2025-10-12T09:00'),
    kind: 'registration-open',
    headline: {
      en: 'Register to vote by October 25, 2025, then make a plan to vote.',
      es: 'Inscríbase para votar antes del 25 de octubre de 2025 y haga un plan para votar.',
    },
  },
  {
    name: 'a runoff: its early voting',
    calendar: runoff,
    when: cdt('2025-11-01T10:00'),
    kind: 'early-voting',
    headline: {
      en: 'Early voting is open today, 8:30 AM to 6:00 PM.',
      es: 'La votación anticipada está abierta hoy, de 8:30 a.m. a 6:00 p.m.',
    },
  },
  {
    name: 'a runoff: its Election Day, after the end of daylight saving time, a minute before the polls close',
    calendar: runoff,
    when: cst('2025-11-15T19:59'),
    kind: 'polls-open',
    headline: {
      en: 'Polls are open today until 8:00 PM. If you are in line by 8:00 PM, you can vote.',
      es: 'Las urnas están abiertas hoy hasta las 8:00 p.m. Si está en la fila a las 8:00 p.m., puede votar.',
    },
  },
  {
    name: 'a runoff: its polls closed at 8:00 PM standard time',
    calendar: runoff,
    when: cst('2025-11-15T20:00'),
    kind: 'polls-closed',
    headline: {
      en: 'Polls have closed. Results are being counted.',
      es: 'Las urnas han cerrado. Se están contando los votos.',
    },
  },
  {
    name: 'a runoff won',
    calendar: { ...runoff, runoff: { ...RUNOFF_2025, outcome: 'won' } },
    when: cst('2025-11-16T09:00'),
    kind: 'results',
    headline: {
      en: 'We won. Thank you to every voter and volunteer: now the work begins.',
      es: 'Ganamos. Gracias a cada votante y voluntario: ahora empieza el trabajo.',
    },
  },
];

afterAll(restore);

const LANGS: Lang[] = ['en', 'es'];
const empty = { events: [], unavailable: false };
const progress = { goals: [], metrics: [], milestones: [], unavailable: false };

describe.each(MOMENTS)('$name', ({ calendar, when, kind, headline }) => {
  it.each(LANGS)('%s: home, footer, navigation, Contact FAQ and /vote say it', async (lang) => {
    at(calendar, when);
    const lines = electionLines(calendar, when, lang);
    const { home, vote } = copyFor(lang);
    expect(lines.stage.kind).toBe(kind);
    expect(lines.headline).toBe(headline[lang]);
    const countdown = lines.countdown ?? '';

    // Home: the stage line with its countdown, the phases' derived statuses, today's sites while early voting is open.
    const homeDoc = await render(HomePage, '/', lang);
    const now = homeDoc.querySelector('.election-now');
    expect(now?.getAttribute('data-election-stage')).toBe(kind);
    expect(textOf(homeDoc, '.election-now p')).toBe(`${headline[lang]} ${countdown}`.trim());
    expect([...homeDoc.querySelectorAll('.timeline .badge')].map((b) => b.textContent?.trim())).toEqual(
      lines.phaseStatuses.map((s) => home.phaseStatusLabels[s]),
    );
    const today = lines.stage.earlyVotingToday && lines.stage.nextEarlyVotingDay?.date === lines.stage.today;
    const todaySites = [...homeDoc.querySelectorAll('.election-now .sites li')].map((li) => li.textContent);
    expect(todaySites).toHaveLength(today ? lines.stage.earlyVotingToday!.sites.length : 0);
    for (const [i, site] of (today ? lines.stage.earlyVotingToday!.sites : []).entries())
      expect(todaySites[i]).toContain(site.address);
    expect(Boolean(homeDoc.querySelector('[data-next-steps]'))).toBe(lines.mode === 'won');

    // Footer: each date line, in the stage's tense, and the mode's thank-you once one is chosen.
    const footer = textOf(homeDoc, '.footer-dates');
    for (const line of lines.footer) expect(footer).toContain(`${line.label} ${line.value}`);
    expect(homeDoc.querySelector('.footer-dates')?.getAttribute('data-election-stage')).toBe(kind);
    expect(footer.includes(headline[lang])).toBe(lines.mode !== 'campaign');

    // Navigation: "Vote" during the get-out-the-vote stages only.
    const voteLink = [...homeDoc.querySelectorAll('.site-header a')].some(
      (a) => a.textContent?.trim() === vote.voteCopy.navLabel,
    );
    expect(voteLink).toBe(lines.voteInNav);

    // Contact FAQ: the election answer in the stage's tense.
    const contact = await render(ContactPage, '/contact', lang, empty);
    expect(textOf(contact, '.faq')).toContain(lines.faqAnswer);

    // /vote: the stage line and countdown, today's early-voting day marked, the plan form's days (none once the
    // polls have closed), and "by mail" only while a day can still be chosen by mail.
    const voteDoc = await render(VotePage, '/vote', lang);
    expect(textOf(voteDoc, '.stage')).toBe(`${headline[lang]} ${countdown}`.trim());
    expect(voteDoc.querySelectorAll('tr.today')).toHaveLength(lines.stage.earlyVotingToday ? 1 : 0);
    const offered = [...voteDoc.querySelectorAll('select[name="day"] option:not([value=""])')].map(
      (o) => o.textContent,
    );
    expect(offered).toEqual(planDays(calendar, when).map((d) => planDayLabel(d, lang)));
    expect(Boolean(voteDoc.querySelector('[data-plan-closed]'))).toBe(offered.length === 0);
    const methods = [...voteDoc.querySelectorAll('select[name="method"] option:not([value=""])')].map((o) =>
      o.getAttribute('value'),
    );
    // While days are offered, by mail is among the ways exactly when a mail day is.
    expect(offered.length > 0 && methods.includes('mail')).toBe(
      offered.length > 0 && planDays(calendar, when, 'mail').length > 0,
    );
  });
});

describe('what the plan form offers as the deadlines pass', () => {
  it('drops each early-voting day as it closes, and "by mail" once no day before the return deadline is left', async () => {
    at(cal, cdt('2025-09-28T12:00'));
    const sunday = await render(VotePage, '/vote', 'en');
    // The list starts with an empty choice: a plan names its day on purpose.
    expect(sunday.querySelector('select[name="day"] option[selected]')?.getAttribute('value')).toBe('');
    expect(sunday.querySelector('select[name="day"] option:not([value=""])')?.getAttribute('value')).toBe(
      '2025-09-29',
    );
    at(cal, cdt('2025-10-04T17:59'));
    const methods = async () =>
      [
        ...(await render(VotePage, '/vote', 'es')).querySelectorAll(
          'select[name="method"] option:not([value=""])',
        ),
      ].map((o) => o.getAttribute('value'));
    expect(await methods()).toEqual(['in-person', 'mail']);
    at(cal, cdt('2025-10-04T18:00'));
    expect(await methods()).toEqual(['in-person']);
  });
});

describe('the campaign ended', () => {
  it.each(LANGS)(
    '%s: donate retires the debt, volunteer and text sign-up say "stay in touch" instead of a form',
    async (lang) => {
      const ended: ElectionCalendar = { ...cal, mode: 'ended' };
      const words = copyFor(lang).vote.afterCopy;
      for (const [calendar, closed] of [
        [ended, true],
        [{ ...cal, mode: 'won' } as ElectionCalendar, false],
      ] as const) {
        at(calendar, cdt('2025-10-12T09:00'));
        const donate = await render(DonatePage, '/donate', lang);
        expect(textOf(donate, 'h1') === words.retireDebt.heading).toBe(closed);
        const volunteer = await render(VolunteerPage, '/volunteer', lang, progress);
        expect(Boolean(volunteer.querySelector('[data-form-closed="volunteer"]'))).toBe(closed);
        expect(Boolean(volunteer.querySelector('#volunteer-form form'))).toBe(!closed);
        const home = await render(HomePage, '/', lang);
        expect(Boolean(home.querySelector('[data-form-closed="text-signup"]'))).toBe(closed);
        expect(Boolean(home.querySelector('#text-signup-form form'))).toBe(!closed);
        expect(textOf(volunteer, '[data-form-closed]').includes(words.volunteerClosed)).toBe(closed);
        // RSVPs stay open in every mode: an event staff keep public still takes them (a debt-retirement
        // fundraiser, a thank-you party), as the endpoint does (tests/api/post-election.test.ts).
        const event = await render(EventPage, '/events/7', lang, {
          event: upcomingEvent,
          unavailable: false,
        });
        expect(event.querySelector('form[data-rsvp-form]')?.getAttribute('action')).toBe(
          '/api/events/7/rsvp',
        );
      }
    },
  );
});

/** A public event after the election that takes RSVPs on the site. */
const upcomingEvent = {
  id: 7,
  title: 'Thank-you party',
  description: 'Join us to thank every volunteer.',
  location: 'Mid-City Library, 4140 Canal St',
  eventDate: '2025-10-20',
  startTime: '18:00',
  endTime: '20:00',
  eventType: 'community_event',
  isPublic: true,
  maxAttendees: null,
  registrationRequired: true,
  registrationUrl: '',
  lang: 'en',
};

describe('a plan to vote refused without JavaScript', () => {
  it.each(LANGS)(
    '%s: the refused page has the form again, filled in, with each field’s error in the page’s language',
    async (lang) => {
      at(cal, cdt('2025-09-17T12:00'));
      const words = copyFor(lang).vote.planCopy;
      const doc = await render(FormRefusedPage, '/forms/vote-plan', lang, {
        form: 'vote-plan',
        message: 'Please enter a valid phone number',
        values: { day: '2025-10-01', method: 'mail', name: 'Rosa Parks', phone: '12', smsConsent: true },
        fieldErrors: { phone: 'Please enter a valid phone number', captcha: 'Please complete the CAPTCHA' },
        back: '/vote#plan-heading',
      });
      const form = doc.querySelector('form[data-plan-form]')!;
      expect(form.getAttribute('action')).toBe('/api/vote-plan');
      expect(form.querySelector<HTMLSelectElement>('select[name="day"] option[selected]')?.value).toBe(
        '2025-10-01',
      );
      expect(form.querySelector('select[name="method"] option[selected]')?.getAttribute('value')).toBe(
        'mail',
      );
      expect(form.querySelector('input[name="name"]')?.getAttribute('value')).toBe('Rosa Parks');
      expect(form.querySelector('input[name="smsConsent"]')?.hasAttribute('checked')).toBe(true);
      expect(form.querySelector('input[name="emailConsent"]')?.hasAttribute('checked')).toBe(false);
      const phone = form.querySelector('input[name="phone"]')!;
      expect(phone.getAttribute('aria-invalid')).toBe('true');
      expect(textOf(doc, `#${phone.getAttribute('aria-describedby')}`)).toBe(words.errors.phone);
      expect(textOf(doc, '#plan-captcha-error')).toBe(words.errors.captcha);
      expect(form.querySelector('input[name="name"]')?.hasAttribute('aria-invalid')).toBe(false);
      expect(doc.querySelector('#plan-name-error')?.hasAttribute('hidden')).toBe(true);
    },
  );
});
