import type { TitledText } from '../lib/schemas/content';
import { candidate, electionFacts } from './campaign.ts';

/* About page copy (spec section 2 "About"). Biography details are placeholders. */

const years = electionFacts.yearsFinancialExperience;

export const aboutIntro = {
  badge: 'Reform Candidate • One-Term Pledge',
  heading: `About ${candidate.fullName}`,
  lead: `An accountant, not a politician: ${years} years of following the money, now running to fix ${candidate.city}'s books and restore trust in City Hall.`,
};

export const biography = [
  `${candidate.fullName} has spent ${years} years in finance: auditing companies and nonprofits, untangling public budgets, and helping families and small businesses keep their books in order. That career has been built on one habit: checking the numbers, then telling people the truth about them.`,
  `A longtime ${candidate.city} resident, ${candidate.firstName} has watched the city struggle with broken streets, unreliable drainage, billing errors and budgets that residents cannot follow. ${candidate.firstName} is running for ${candidate.office} to bring an auditor's discipline to city government and to leave after one term with the work done.`,
];

export const educationAndExperience = {
  heading: 'Education & Experience',
  items: [
    'Certified Public Accountant',
    'Bachelor of Science in Accounting',
    `${years} years in auditing, public finance and small-business accounting`,
    'Volunteer treasurer for neighborhood associations and community nonprofits',
    'Financial literacy teacher for first-time homebuyers and small-business owners',
  ],
};

export const coreValues = [
  {
    title: 'Transparency',
    description: 'Every dollar the city spends should be visible to the people who pay for it.',
  },
  {
    title: 'Accountability',
    description: 'Set measurable goals, publish the results and own the misses as well as the wins.',
  },
  {
    title: 'Inclusivity',
    description: 'Every neighborhood and every voice gets a seat at the table and a fair share.',
  },
  {
    title: 'Service',
    description: 'Public office is a job to be done for residents, not a career to be protected.',
  },
] satisfies TitledText[];

export const oneTermPledge = {
  heading: 'The One-Term Pledge',
  paragraphs: [
    `${candidate.fullName} pledges to serve a single four-year term as ${candidate.office}.`,
    'Without a re-election campaign to fund or protect, every decision can be made on the merits: what is right for the city, not what is safe for the next race. Four years is enough time to fix the books, set the city on a sound footing and hand it to the next leader in better shape.',
  ],
};

export const whyDifferent = {
  heading: `Why ${candidate.fullName} is Different`,
  points: [
    {
      title: 'Outsider Perspective',
      description: `Not a career politician: ${candidate.firstName} brings a lifetime of private-sector and nonprofit finance experience and owes no favors to City Hall insiders.`,
    },
    {
      title: 'Reform Focus',
      description:
        'Open checkbook, independent audits and published performance figures: reforms that make government work and keep working after this term ends.',
    },
    {
      title: 'Coalition Builder',
      description:
        'Decades of work with businesses, nonprofits, churches and neighborhood groups to find common ground and get results.',
    },
  ] satisfies TitledText[],
};

export const vision = {
  heading: `Vision for ${candidate.city}`,
  paragraphs: [
    `A ${candidate.city} where the streets drain, the lights stay on and the water bill is right; where residents can see how their money is spent; and where every neighborhood shares in the city's prosperity.`,
    'A city that protects its culture and its people, welcomes visitors without pricing out residents, and trusts its government again because that government has earned it.',
  ],
};

/**
 * The intro's lead and the biography's second paragraph once the polls have closed (docs/decisions/157-election-calendar.md):
 * "ran" until an admin sets the outcome and after a loss or the end of the campaign (a fact either way); "elected"
 * after a win. Before the polls close, aboutIntro.lead and biography[1] speak.
 */
export const aboutAfterElection = {
  ran: {
    lead: `An accountant, not a politician: ${years} years of following the money, and a candidate for ${candidate.office} in ${candidate.city}'s election to fix the city's books and restore trust in City Hall.`,
    paragraph: `A longtime ${candidate.city} resident, ${candidate.firstName} has watched the city struggle with broken streets, unreliable drainage, billing errors and budgets that residents cannot follow. ${candidate.firstName} ran for ${candidate.office} to bring an auditor's discipline to city government, pledging to serve one term and leave with the work done.`,
  },
  elected: {
    lead: `An accountant, not a politician: ${years} years of following the money, now elected to fix ${candidate.city}'s books and restore trust in City Hall.`,
    paragraph: `A longtime ${candidate.city} resident, ${candidate.firstName} has watched the city struggle with broken streets, unreliable drainage, billing errors and budgets that residents cannot follow. ${candidate.firstName} was elected ${candidate.office} to bring an auditor's discipline to city government, and will leave after one term with the work done.`,
  },
};
