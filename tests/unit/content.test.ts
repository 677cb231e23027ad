import { describe, expect, it } from 'vitest';
import { aboutIntro, coreValues, whyDifferent } from '../../src/content/about';
import {
  candidate,
  electionFacts,
  footerNav,
  paidForDisclaimer,
  primaryNav,
} from '../../src/content/campaign';
import { faqs, officeHours, responseTimes } from '../../src/content/contact';
import { contributionRules, donationPresets, spendingBreakdown } from '../../src/content/donate';
import { campaignPhases, carouselVideos, pillars } from '../../src/content/home';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { phaseStatuses } from '../../src/lib/election-stage';
import { longDate } from '../../src/lib/format';
import { privacyPolicy, termsOfUse } from '../../src/content/legal';
import { pageMeta } from '../../src/content/metadata';
import { priorities } from '../../src/content/platform';
import { helpAreas, volunteerImpact, weeklyGoals } from '../../src/content/volunteer';
import {
  CampaignPhaseSchema,
  CandidateSchema,
  CarouselVideoSchema,
  ElectionFactsSchema,
  LegalDocumentSchema,
  PageMetaSchema,
  PillarSchema,
  PlatformPrioritySchema,
} from '../../src/lib/schemas/content';

// The data modules are typed with `satisfies`; these tests add the runtime checks
// types cannot express (formats, counts, sums) and pin the spec's facts.

describe('campaign content', () => {
  it('parses with the schemas', () => {
    expect(() => CandidateSchema.parse(candidate)).not.toThrow();
    expect(() => ElectionFactsSchema.parse(electionFacts)).not.toThrow();
    for (const meta of Object.values(pageMeta)) PageMetaSchema.parse(meta);
    for (const video of carouselVideos) CarouselVideoSchema.parse(video);
    for (const pillar of pillars) PillarSchema.parse(pillar);
    for (const phase of campaignPhases) CampaignPhaseSchema.parse(phase);
    for (const priority of priorities) PlatformPrioritySchema.parse(priority);
    LegalDocumentSchema.parse(termsOfUse);
    LegalDocumentSchema.parse(privacyPolicy);
  });

  it('holds the facts of spec sections 1 and 9', () => {
    expect(candidate.city).toBe('New Orleans');
    expect(paidForDisclaimer).toBe(`Paid for by ${candidate.committeeName}`);
    expect(electionFacts).toMatchObject({
      candidateCount: 14,
      yearsFinancialExperience: 52,
      electionDay: { iso: '2025-10-11', label: 'October 11, 2025' },
      qualifiedOn: { iso: '2025-07-09', label: 'July 9, 2025' },
      earlyVoting: { label: 'September 27 - October 4' },
    });
    expect(donationPresets).toEqual([25, 50, 100, 250, 500, 1000]);
    expect(spendingBreakdown.map((s) => s.percent)).toEqual([60, 25, 15]);
    expect(spendingBreakdown.reduce((sum, s) => sum + s.percent, 0)).toBe(100);
    expect(contributionRules.map((r) => r.amount)).toEqual([
      12_000,
      24_000,
      12_000,
      100,
      200,
      1_000,
      250,
      undefined,
    ]);
    expect(weeklyGoals.map((g) => g.target)).toEqual([15, 500, 3, 200]);
    expect(volunteerImpact.map((i) => i.result)).toEqual([
      'reaches 20-30 voters',
      'covers 40-60 homes',
      'engages 100+ voters',
    ]);
    expect(officeHours).toHaveLength(3);
    expect(responseTimes).toEqual({
      press: 'within 4 hours',
      contactReply: 'within 24 hours',
      endorsementTimeline: '7-10 business days',
      speakingNotice: '2-3 weeks',
    });
  });

  it('has the lists of the spec', () => {
    expect(priorities.map((p) => p.title)).toEqual([
      'Public Safety & Governance',
      'Infrastructure & Environment',
      'Financial Reforms & Revenue',
      'Community Development & Equity',
      'Tourism & Historic Sites',
      'Education Reforms',
      'Healthcare Access & Reforms',
      'Tax & Billing Fixes',
      'Affordable Housing & Anti-Displacement',
      'Economic Empowerment & Job Creation',
    ]);
    expect(pillars.map((p) => p.title)).toEqual([
      'Infrastructure',
      'Public Safety',
      'Transparency',
      'Inclusive Prosperity',
    ]);
    // Statuses are derived from the periods, the calendar and the clock (docs/decisions/157-election-calendar.md):
    // on the spec's day (September 17, 2025) they are the spec's.
    const specDay = new Date('2025-09-17T17:00:00Z');
    const statuses = phaseStatuses(campaignPhases, defaultElectionCalendar, specDay);
    expect(campaignPhases.map((p, i) => [p.period, statuses[i]])).toEqual([
      ['July 12 - August 10, 2025', 'completed'],
      ['August 11 - September 9, 2025', 'completed'],
      ['September 10 - October 10, 2025', 'active'],
    ]);
    for (const p of campaignPhases)
      expect(p.period).toBe(
        `${longDate(p.start.iso, 'en', { year: p.start.iso.slice(0, 4) === p.end.iso.slice(0, 4) ? undefined : 'numeric' })} - ${longDate(p.end.iso, 'en')}`,
      );
    expect(carouselVideos).toHaveLength(2);
    for (const video of carouselVideos) expect(video.badge).toBe('Reform Candidate • One-Term Pledge');
    expect(helpAreas).toHaveLength(6);
    expect(coreValues.map((v) => v.title)).toEqual([
      'Transparency',
      'Accountability',
      'Inclusivity',
      'Service',
    ]);
    expect(whyDifferent.heading).toBe(`Why ${candidate.fullName} is Different`);
    expect(aboutIntro.heading).toContain(candidate.fullName);
    expect(faqs.length).toBeGreaterThan(0);
    expect(primaryNav.map((l) => [l.label, l.href])).toEqual([
      ['Home', '/'],
      ['About', '/about'],
      ['Platform', '/platform'],
      ['News', '/blog'],
      ['Contact', '/contact'],
    ]);
    expect(footerNav.map((l) => l.label)).toEqual([
      'About',
      'Platform',
      'Volunteer',
      'Donate',
      'News',
      'Contact',
      'Privacy Policy',
      'Terms of Use',
    ]);
  });

  it('gives every page a distinct title', () => {
    const titles = Object.values(pageMeta).map((m) => m.title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('has every Terms of Use section of the spec', () => {
    expect(termsOfUse.lastUpdated.label).toBe('September 17, 2025');
    expect(termsOfUse.sections.map((s) => s.heading)).toEqual([
      'Acceptance of Terms',
      'Website Usage Purposes',
      'User Responsibilities',
      'Prohibited Activities',
      'Political Communications',
      'Mobile Messaging Program Consent',
      'Donation Terms',
      'Intellectual Property',
      'Third-Party Links',
      'Disclaimers',
      'Privacy',
      'Termination',
      'Governing Law',
      'Changes to Terms',
      'Contact Information',
      'Acknowledgment',
    ]);
    const text = (id: string) => termsOfUse.sections.find((s) => s.id === id)?.paragraphs.join(' ') ?? '';
    expect(text('governing-law')).toContain('State of Louisiana');
    expect(text('changes')).toContain('30 days');
    expect(text('mobile-messaging')).toMatch(/STOP.*HELP/s);
  });
});
