import type { Faq, OfficeHours } from '../lib/schemas/content';
import type { ContactSubject } from '../lib/schemas/public-forms';
import { candidate, electionFacts } from './campaign.ts';
import { IDENTITY } from './identity.ts';

/* Contact page copy (spec section 2 "Contact" and section 9). */

export const contactIntro = {
  heading: 'Contact the Campaign',
  lead: `Questions, ideas or concerns about ${candidate.city}? We want to hear from you.`,
};

/** Office hours (spec section 9). */
export const officeHours = [
  { days: 'Monday - Friday', hours: '9:00 AM - 8:00 PM' },
  { days: 'Saturday', hours: '10:00 AM - 6:00 PM' },
  { days: 'Sunday', hours: 'By appointment' },
] satisfies OfficeHours[];

/** Response-time promises (spec section 9). */
export const responseTimes = {
  press: 'within 4 hours',
  contactReply: 'within 24 hours',
  endorsementTimeline: '7-10 business days',
  speakingNotice: '2-3 weeks',
};

/** Press, endorsement and speaking-engagement cards. */
export const outreachCards = [
  {
    title: 'Press Inquiries',
    description: `Members of the media can reach our press team, who respond ${responseTimes.press} during office hours.`,
    email: IDENTITY.emails.press,
    icon: 'newspaper',
  },
  {
    title: 'Endorsements',
    description: `Organizations and community leaders interested in endorsing ${candidate.fullName}: expect a response in ${responseTimes.endorsementTimeline}.`,
    email: IDENTITY.emails.endorsements,
    icon: 'handshake',
  },
  {
    title: 'Speaking Engagements',
    description: `Invite ${candidate.firstName} to your event. Please give ${responseTimes.speakingNotice} notice.`,
    email: IDENTITY.emails.scheduling,
    icon: 'mic',
  },
] as const;

/** Labels of the contact subjects (form select, staff inbox, notification email); keys are the schema's enum. */
export const contactSubjectLabels = {
  general: 'General Inquiry',
  volunteer: 'Volunteering',
  press: 'Press Inquiry',
  endorsement: 'Endorsement',
  event: 'Event Request',
  policy: 'Policy Question',
  donation: 'Donations',
  interview: 'Interview Request',
} satisfies Record<ContactSubject, string>;

export const contactFormIntro = {
  heading: 'Send Us a Message',
  text: `We'll get back to you ${responseTimes.contactReply}.`,
};

/**
 * The election FAQ's answer in each tense (docs/decisions/157-election-calendar.md): the Contact page picks the
 * sentences for the build's stage (src/content/election-lines.ts); the FAQ below is the spec's day's answer.
 */
export const electionAnswer = {
  is: (day: string) => `Election Day is ${day}.`,
  was: (day: string) => `Election Day was ${day}.`,
  runs: (range: string) => `Early voting runs ${range}.`,
  ran: (range: string) => `Early voting ran ${range}.`,
};

export const faqs = [
  {
    /** The answer the Contact page replaces with the build's stage's (docs/decisions/157-election-calendar.md). */
    id: 'election',
    question: 'When is Election Day?',
    answer: `${electionAnswer.is(electionFacts.electionDay.label)} ${electionAnswer.runs(electionFacts.earlyVoting.label)}`,
  },
  {
    question: 'How can I volunteer?',
    answer:
      'Sign up on the Volunteer page and choose how you want to help: canvassing, phone or text banking, events, digital outreach or other skills.',
  },
  {
    question: 'How are donations used?',
    answer:
      'Most of every dollar goes to voter outreach; the Donate page shows the full spending breakdown and the contribution rules.',
  },
  {
    question: `What is ${candidate.firstName}'s one-term pledge?`,
    answer: `${candidate.fullName} pledges to serve a single four-year term and focus entirely on results rather than re-election.`,
  },
  {
    question: 'Can I request a yard sign or campaign materials?',
    answer:
      'Yes. Send us a message with the subject "General Inquiry" and your address, and a volunteer will arrange delivery.',
  },
] satisfies Faq[];
