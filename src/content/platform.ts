import type { PlatformPriority } from '../lib/schemas/content';
import { candidate } from './campaign.ts';

/* The ten priorities of the Platform page (spec section 2 "Platform"), in order. */

export const platformIntro = {
  badge: 'The Platform',
  heading: `Ten Priorities for ${candidate.city}`,
  lead: `A practical, one-term agenda from ${candidate.fullName}: fix what is broken, open the books, and measure every promise.`,
};

export const priorities = [
  {
    title: 'Public Safety & Governance',
    subtitle: 'Safe neighborhoods and a city hall that answers to residents',
    bullets: [
      'Cut 911 and emergency response times with published weekly figures',
      'Expand community policing and fund proven violence-interruption programs',
      'Fill vacant public-safety positions with competitive pay and training',
      'Appoint an independent inspector to review city contracts and overtime',
    ],
  },
  {
    title: 'Infrastructure & Environment',
    subtitle: 'Streets, drainage and power that work when they are needed',
    bullets: [
      'Publish a street-by-street repair schedule with budgets and deadlines',
      'Maintain catch basins and pumps year-round, not only before storms',
      'Push for reliable power and backup generation at critical facilities',
      'Plant trees and add green infrastructure to reduce flooding and heat',
    ],
  },
  {
    title: 'Financial Reforms & Revenue',
    subtitle: 'An accountant’s discipline for the city budget',
    bullets: [
      'Put every city expenditure in an online open checkbook',
      'Commission an independent forensic audit in the first year',
      'Collect revenue the city is already owed before raising any fee',
      'Present a balanced, plain-language budget to residents every year',
    ],
  },
  {
    title: 'Community Development & Equity',
    subtitle: 'Investment in every neighborhood, not just a few',
    bullets: [
      'Direct capital dollars to the neighborhoods that have waited longest',
      'Hold district-level budget hearings before the budget is final',
      'Support community land trusts and neighborhood associations',
      'Track and report outcomes by council district',
    ],
  },
  {
    title: 'Tourism & Historic Sites',
    subtitle: 'Protect the culture that makes New Orleans unique',
    bullets: [
      'Reinvest a fair share of tourism revenue in the neighborhoods that host visitors',
      'Preserve historic buildings and support culture bearers and musicians',
      'Keep the French Quarter and corridors clean, safe and well lit',
      'Promote sites beyond the Quarter to spread visitor spending citywide',
    ],
  },
  {
    title: 'Education Reforms',
    subtitle: 'Partnering for students, families and lifelong learning',
    bullets: [
      'Work with schools on safe routes, after-school and summer programs',
      'Expand youth apprenticeships with local employers',
      'Keep libraries and recreation centers open longer',
      'Support adult literacy and job-training programs',
    ],
  },
  {
    title: 'Healthcare Access & Reforms',
    subtitle: 'Care close to home for every resident',
    bullets: [
      'Expand neighborhood clinics and mobile health services',
      'Fund mental-health crisis response alongside emergency services',
      'Partner with hospitals on preventive care and health screenings',
      'Prepare cooling and shelter plans for extreme heat and storms',
    ],
  },
  {
    title: 'Tax & Billing Fixes',
    subtitle: 'Accurate bills and a fair, simple process',
    bullets: [
      'Fix water and sewer billing errors and refund overcharges',
      'Create a single online portal for city bills and payments',
      'Make property assessments and appeals clear and predictable',
      'Answer billing complaints within set, published deadlines',
    ],
  },
  {
    title: 'Affordable Housing & Anti-Displacement',
    subtitle: 'Keep longtime residents in the neighborhoods they built',
    bullets: [
      'Enforce short-term rental rules and protect long-term housing',
      'Return blighted and city-owned lots to productive, affordable use',
      'Expand home-repair assistance for seniors and low-income owners',
      'Speed up permits for affordable and mixed-income housing',
    ],
  },
  {
    title: 'Economic Empowerment & Job Creation',
    subtitle: 'Good jobs and a fair shot for local businesses',
    bullets: [
      'Pay city vendors on time and simplify contracting for small firms',
      'Set clear local-hiring goals for city-funded projects',
      'Create a one-stop permitting and licensing office',
      'Support workforce training tied to growing industries',
    ],
  },
] satisfies PlatformPriority[];

export const platformCallToAction = {
  heading: 'Help Turn This Plan Into Results',
  text: 'The platform only matters if we win. Give an hour or give a dollar: both move the campaign forward.',
};
