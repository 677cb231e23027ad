import { afterAll, describe, expect, it } from 'vitest';
import AboutPage from '../../src/components/pages/AboutPage.astro';
import DonatePage from '../../src/components/pages/DonatePage.astro';
import HomePage from '../../src/components/pages/HomePage.astro';
import VotePage from '../../src/components/pages/VotePage.astro';
import VolunteerPage from '../../src/components/pages/VolunteerPage.astro';
import { copyFor } from '../../src/content/copy';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import type { ElectionCalendar, SiteVoice } from '../../src/lib/election-stage';
import type { Lang } from '../../src/lib/lang';
import { RUNOFF_2025 } from '../helpers/election';
import { at, render, restore } from './render';

/*
 * One voice at every stage (docs/decisions/157-election-calendar.md): the pages that campaign (the home page's
 * summary and text sign-up, /about, /volunteer, /donate) are walked through the election with a fake clock, in both
 * languages, and none campaigns for an election whose polls have closed, none claims an outcome an admin has not
 * set, and none speaks of the election in the past while it is still ahead. Every moment is written with its
 * explicit UTC offset (CDT -05:00 until November 2, 2025; CST -06:00 after).
 */

afterAll(() => restore());

const cal: ElectionCalendar = defaultElectionCalendar;
const runoff: ElectionCalendar = { ...cal, mode: 'runoff', runoff: RUNOFF_2025 };
const with_ = (mode: ElectionCalendar['mode']): ElectionCalendar => ({ ...cal, mode });

const MOMENTS: { name: string; calendar: ElectionCalendar; when: string; voice: SiteVoice }[] = [
  { name: 'registration open', calendar: cal, when: '2025-09-08T12:00:00-05:00', voice: 'campaign' },
  { name: 'early voting', calendar: cal, when: '2025-09-27T10:00:00-05:00', voice: 'campaign' },
  {
    name: 'the last minute of the polls',
    calendar: cal,
    when: '2025-10-11T19:59:00-05:00',
    voice: 'campaign',
  },
  {
    name: 'polls closed, election night',
    calendar: cal,
    when: '2025-10-11T20:00:00-05:00',
    voice: 'awaiting',
  },
  { name: 'results in, no outcome set', calendar: cal, when: '2025-10-12T09:00:00-05:00', voice: 'awaiting' },
  { name: 'a year on, no outcome set', calendar: cal, when: '2026-11-29T12:00:00-06:00', voice: 'awaiting' },
  {
    name: 'an outcome chosen early',
    calendar: with_('won'),
    when: '2025-10-11T12:00:00-05:00',
    voice: 'campaign',
  },
  { name: 'won', calendar: with_('won'), when: '2025-10-12T09:00:00-05:00', voice: 'won' },
  { name: 'lost', calendar: with_('lost'), when: '2025-10-12T09:00:00-05:00', voice: 'lost' },
  { name: 'campaign ended', calendar: with_('ended'), when: '2026-11-29T12:00:00-06:00', voice: 'ended' },
  { name: 'a runoff ahead', calendar: runoff, when: '2025-11-10T12:00:00-06:00', voice: 'campaign' },
  {
    name: 'after the runoff, no outcome',
    calendar: runoff,
    when: '2025-11-16T09:00:00-06:00',
    voice: 'awaiting',
  },
  {
    name: 'runoff won',
    calendar: { ...runoff, runoff: { ...RUNOFF_2025, outcome: 'won' } },
    when: '2025-11-16T09:00:00-06:00',
    voice: 'won',
  },
];

/** What each page says while campaigning, and the words that claim an outcome or speak of the election as past. */
function phrases(lang: Lang) {
  const { about, donate, home, volunteer, vote } = copyFor(lang);
  return {
    campaigning: [
      about.aboutIntro.lead,
      about.biography[1]!,
      volunteer.volunteerIntro.lead,
      home.textSignup.text,
      home.candidateSummary.lead,
      donate.donateIntro.lead,
    ],
    won: [
      about.aboutAfterElection.elected.lead,
      about.aboutAfterElection.elected.paragraph,
      home.candidateSummaryAfterElection.elected,
      volunteer.volunteerAfterElection.won,
      donate.donateAfterElection.won,
      vote.afterCopy.nextHeading,
    ],
    lost: [volunteer.volunteerAfterElection.lost, donate.donateAfterElection.lost],
    past: [
      about.aboutAfterElection.ran.lead,
      about.aboutAfterElection.ran.paragraph,
      home.candidateSummaryAfterElection.ran,
      home.textSignupAfterElection.text,
      volunteer.volunteerAfterElection.awaiting,
      donate.donateAfterElection.awaiting,
    ],
  };
}

const progress = { goals: [], metrics: [], milestones: [], unavailable: false };
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

async function pagesText(lang: Lang): Promise<Record<string, string>> {
  const text = (d: Document) => squash(d.querySelector('main')?.textContent ?? '');
  return {
    home: text(await render(HomePage, '/', lang)),
    about: text(await render(AboutPage, '/about', lang)),
    volunteer: text(await render(VolunteerPage, '/volunteer', lang, progress)),
    donate: text(await render(DonatePage, '/donate', lang)),
  };
}

const found = (pages: Record<string, string>, list: string[]) =>
  Object.entries(pages).flatMap(([page, text]) =>
    list.filter((p) => text.includes(squash(p))).map((p) => `${page}: ${p}`),
  );

describe('one voice at every stage', () => {
  for (const lang of ['en', 'es'] as Lang[])
    it.each(MOMENTS)(`${lang}: $name`, async ({ calendar, when, voice }) => {
      at(calendar, new Date(when));
      const pages = await pagesText(lang);
      const p = phrases(lang);
      // Each voice: what must be said (all of it), and what must not be (none of it). While campaigning, nothing
      // speaks of the election as past; once the polls close nothing campaigns, and no outcome is claimed but the
      // one an admin set.
      const saidAfter = [...p.past, ...p.won, ...p.lost];
      const must: Record<SiteVoice, string[]> = {
        campaign: p.campaigning,
        awaiting: p.past,
        won: p.won.slice(0, 5),
        lost: p.lost,
        ended: [p.past[0]!],
      };
      const mustNot: Record<SiteVoice, string[]> = {
        campaign: saidAfter,
        awaiting: [...p.campaigning, ...p.won, ...p.lost],
        won: [...p.campaigning, ...p.lost],
        lost: [...p.campaigning, ...p.won],
        ended: [...p.campaigning, ...p.won, ...p.lost],
      };
      expect(found(pages, mustNot[voice])).toEqual([]);
      expect(found(pages, must[voice])).toHaveLength(must[voice].length);
    });
});

describe('/vote after the election is a short record, not the past as instructions', () => {
  for (const lang of ['en', 'es'] as Lang[])
    it(`${lang}: past deadlines read as closed, early voting is one line, the polls "were" open`, async () => {
      const w = copyFor(lang).vote.voteCopy;
      const text = async (when: string) => {
        at(cal, new Date(when));
        const doc = await render(VotePage, '/vote', lang);
        return { doc, main: squash(doc.querySelector('main')?.textContent ?? '') };
      };
      // Before registration closes: the instructions, the table of days and the sites.
      const before = await text('2025-09-08T12:00:00-05:00');
      expect(before.main).toContain(w.deadlines.online);
      expect(before.main).not.toContain(w.deadlinesPast.online);
      expect(before.doc.querySelectorAll('main table tbody tr')).toHaveLength(7);
      // A year on: every deadline is a record, no table, no list of sites, and the hours in the past.
      const after = await text('2026-11-29T12:00:00-06:00');
      const labels = (doc: Document) =>
        [...doc.querySelectorAll('main dl.dates dt')].map((d) => squash(d.textContent ?? ''));
      expect(labels(after.doc)).toEqual(Object.values(w.deadlinesPast).map(squash));
      expect(labels(before.doc)).toEqual(Object.values(w.deadlines).map(squash));
      expect(after.doc.querySelector('main table')).toBeNull();
      expect(after.doc.querySelector('main .sites')).toBeNull();
      expect(squash(after.doc.querySelector('[data-early-voting-over]')?.textContent ?? '')).toBe(
        squash(
          `${w.earlyOver} ${w.earlyRan(copyFor(lang).vote.electionWords.range(lang === 'en' ? 'Saturday, September 27, 2025' : 'sábado, 27 de septiembre de 2025', lang === 'en' ? 'Saturday, October 4, 2025' : 'sábado, 4 de octubre de 2025'), 4)}`,
        ),
      );
      expect(after.main).toContain(
        w.pollHoursPast(lang === 'en' ? '7:00 AM' : '7:00 a.m.', lang === 'en' ? '8:00 PM' : '8:00 p.m.'),
      );
      // Election night: registration closed long ago, the polls just closed.
      const night = await text('2025-10-11T20:30:00-05:00');
      expect(night.main).toContain(w.deadlinesPast.electionDay);
      expect(night.main).toContain(w.deadlines.results);
    });
});
