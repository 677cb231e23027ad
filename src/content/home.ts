import type { CampaignPhase, CarouselVideo, PhaseStatus, Pillar } from '../lib/schemas/content';
import { candidate, electionFacts } from './campaign.ts';

/* Home page copy (spec section 2 "Home", sections 3, 4 and 9). */

const badge = 'Reform Candidate • One-Term Pledge';

/**
 * The two carousel videos. The ids are placeholders until the campaign uploads
 * its videos (docs/decisions/162-public-pages-and-performance.md); thumbnails and embeds are built from them.
 */
export const carouselVideos = [
  { videoId: 'REPLACE-ME-01', title: `Meet ${candidate.fullName}`, badge },
  { videoId: 'REPLACE-ME-02', title: `A One-Term Plan for ${candidate.city}`, badge },
] satisfies CarouselVideo[];

/** Carousel timing (spec section 9). */
export const carouselTiming = { transitionMs: 600, autoplayMs: 6000 };

/** Rotating headline above the candidate summary; rotates every 4 s. */
export const rotatingHeadlines = [
  'Honest Leadership for New Orleans',
  'Reform You Can Count On',
  'One Term. Real Results.',
];
export const headlineRotationMs = 4000;

/** Secondary heading rotation, every 3 s. */
export const rotatingSubheadings = ['Accountable', 'Transparent', 'Independent', 'Ready'];
export const subheadingRotationMs = 3000;

/** One-term pledge quotes; rotate every 6 s (150 ms fade on wide screens only). */
export const pledgeQuotes = [
  `"I will serve one term, do the work, and hand the city back in better shape than I found it."`,
  `"Without a re-election campaign to run, every decision can be made for the city, not for the next race."`,
  `"Four years is enough time to fix the books, fix the streets and restore trust."`,
];
export const quoteRotationMs = 6000;

export const candidateSummary = {
  heading: `Meet ${candidate.fullName}`,
  lead: `${candidate.fullName} qualified on ${electionFacts.qualifiedOn.label} as one of ${electionFacts.candidateCount} candidates for ${candidate.office} of ${candidate.city}: an accountant and reformer running on a one-term pledge.`,
  bullets: [
    `${electionFacts.yearsFinancialExperience} years of financial experience`,
    'Independent reformer, not a career politician',
    'One-term pledge: four years focused on results',
    'Open books: every city dollar traceable online',
  ],
};

/** "Platform for Change" cards: the four pillars (spec section 2 "Platform"). */
export const pillars = [
  {
    title: 'Infrastructure',
    description:
      'Fix streets, drainage and power reliability with a public repair schedule and budgets you can track.',
    icon: 'road',
  },
  {
    title: 'Public Safety',
    description:
      'Faster emergency response, community policing and violence prevention that is measured and reported.',
    icon: 'shield',
  },
  {
    title: 'Transparency',
    description:
      'Open checkbook, independent audits and plain-language reports on how every department spends.',
    icon: 'eye',
  },
  {
    title: 'Inclusive Prosperity',
    description:
      'Good jobs, small-business support and affordable housing in every neighborhood, not just a few.',
    icon: 'people',
  },
] satisfies Pillar[];

export const phasesHeading = '90-Day Campaign Phases';

/**
 * The 90-day timeline (spec section 4). Each phase's status (completed, active, upcoming, planned) is derived from
 * its period, the election calendar and the clock (src/lib/election-stage.ts `phaseStatuses`), never stored: on the
 * spec's day it gives the spec's statuses (docs/decisions/157-election-calendar.md).
 */
export const campaignPhases = [
  {
    title: 'Phase 1: Foundations',
    period: 'July 12 - August 10, 2025',
    start: { iso: '2025-07-12' },
    end: { iso: '2025-08-10' },
    description:
      'Build the team, open the headquarters, recruit neighborhood captains and publish the platform.',
  },
  {
    title: 'Phase 2: Momentum',
    period: 'August 11 - September 9, 2025',
    start: { iso: '2025-08-11' },
    end: { iso: '2025-09-09' },
    description:
      'Town halls in every council district, door-to-door canvassing and earned media on the reform agenda.',
  },
  {
    title: 'Phase 3: GOTV',
    period: 'September 10 - October 10, 2025',
    start: { iso: '2025-09-10' },
    end: { iso: '2025-10-10' },
    description: `Get out the vote: phone and text banking, rides to the polls and a full push through early voting (${electionFacts.earlyVoting.label}).`,
  },
] satisfies CampaignPhase[];

/** Badge text for each phase status (spec section 4). */
export const phaseStatusLabels = {
  active: 'Active',
  completed: 'Completed',
  upcoming: 'Upcoming',
  planned: 'Planned',
} satisfies Record<PhaseStatus, string>;

export const textSignup = {
  heading: 'Sign Up For Text Messages',
  text: 'Get campaign updates, polling and voting reminders, and public-service announcements by text.',
};

/** The text sign-up's line once the polls have closed: no voting reminders for an election that is over. */
export const textSignupAfterElection = {
  text: 'Get campaign news and public-service announcements by text.',
};

/** The candidate summary's lead once the polls have closed: "ran" (awaiting, lost, ended) or "elected" (won). */
export const candidateSummaryAfterElection = {
  ran: `${candidate.fullName} qualified on ${electionFacts.qualifiedOn.label} as one of ${electionFacts.candidateCount} candidates for ${candidate.office} of ${candidate.city}: an accountant and reformer who ran on a one-term pledge.`,
  elected: `${candidate.fullName} qualified on ${electionFacts.qualifiedOn.label} as one of ${electionFacts.candidateCount} candidates for ${candidate.office} of ${candidate.city}, and was elected on a one-term pledge: an accountant and reformer, not a career politician.`,
};
