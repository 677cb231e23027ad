import type { Candidate, ElectionFacts, NavLink } from '../lib/schemas/content';
import { IDENTITY, paidForLine } from './identity.ts';
import { longDate } from '../lib/format.ts';
import { defaultElectionCalendar } from './election-calendar.ts';

/*
 * Who is running, where, and the dated facts of the race (spec sections 1 and 9).
 * Names, the committee and contact details are declared in identity.ts only;
 * `candidate` is the view of them the pages use.
 */

export const candidate = {
  firstName: IDENTITY.candidateFirstName,
  lastName: IDENTITY.candidateLastName,
  fullName: IDENTITY.candidateName,
  committeeName: IDENTITY.committeeName,
  office: IDENTITY.office,
  city: IDENTITY.city,
  state: IDENTITY.state,
  stateCode: IDENTITY.stateCode,
  tagline: `Honest books, open government, and a ${IDENTITY.city} that works for everyone.`,
} satisfies Candidate;

/** "Paid for by ..." line required on every page. */
export const paidForDisclaimer = paidForLine();

/** A campaign date and how English writes it ("October 11, 2025"); Spanish derives its label the same way. */
const day = (iso: string) => ({ iso, label: longDate(iso, 'en') });
// The spec's dates, from the seeded election calendar (one source: src/content/election-calendar.ts).
const seed = defaultElectionCalendar.primary;
const earlyVoting = { start: day(seed.earlyVoting.at(0)!.date), end: day(seed.earlyVoting.at(-1)!.date) };

export const electionFacts = {
  electionDay: day(seed.electionDay.date),
  earlyVoting: {
    ...earlyVoting,
    label: `${longDate(earlyVoting.start.iso, 'en', { year: undefined })} - ${longDate(earlyVoting.end.iso, 'en', { year: undefined })}`,
  },
  qualifiedOn: day('2025-07-09'),
  candidateCount: 14,
  yearsFinancialExperience: 52,
} satisfies ElectionFacts;

/** Main navigation (spec section 2). */
export const primaryNav = [
  { label: 'Home', href: '/' },
  { label: 'About', href: '/about' },
  { label: 'Platform', href: '/platform' },
  { label: 'News', href: '/blog' },
  { label: 'Contact', href: '/contact' },
] satisfies NavLink[];

export const donateLink = { label: 'Donate', href: '/donate' } satisfies NavLink;
export const volunteerLink = { label: 'Volunteer', href: '/volunteer' } satisfies NavLink;

/** Footer links, in the order of spec section 2. */
export const footerNav = [
  { label: 'About', href: '/about' },
  { label: 'Platform', href: '/platform' },
  volunteerLink,
  donateLink,
  { label: 'News', href: '/blog' },
  { label: 'Contact', href: '/contact' },
  { label: 'Privacy Policy', href: '/privacy-policy' },
  { label: 'Terms of Use', href: '/terms-of-use' },
] satisfies NavLink[];

const supporterCount = 1350;

/** Newsletter box copy (spec section 9: "1,350+ supporters"). */
export const newsletter = {
  supporterCount,
  supporterLabel: `${supporterCount.toLocaleString('en-US')}+`,
  heading: 'Stay in the Loop',
  text: `Join ${supporterCount.toLocaleString('en-US')}+ supporters getting campaign news, event invitations and volunteer opportunities.`,
};
