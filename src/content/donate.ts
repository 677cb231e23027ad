import type { ContributionRule, SpendingItem } from '../lib/schemas/content';
import { formatUsd } from '../lib/format.ts';
import { candidate } from './campaign.ts';

/* Donate page copy and the campaign-finance facts of spec section 9. */

export const donateIntro = {
  heading: 'Donate',
  lead: `Every contribution funds the people-powered campaign to fix ${candidate.city}'s finances and restore trust in City Hall.`,
};

/** Preset amount buttons, whole dollars (spec section 9). */
export const donationPresets = [25, 50, 100, 250, 500, 1000];

/** Stated campaign budget range in whole dollars. */
export const campaignBudget = { min: 100_000, max: 200_000, label: '$100K-$200K' };

/** Spending split (spec section 2 "Donate"). Percentages add up to 100 (unit-tested). */
export const spendingBreakdown = [
  {
    percent: 60,
    label: 'Voter Outreach',
    description: 'Canvassing materials, phone and text banking, and getting voters to the polls.',
  },
  {
    percent: 25,
    label: 'Digital & Media',
    description: 'Online advertising, video production and the campaign website.',
  },
  {
    percent: 15,
    label: 'Operations',
    description: 'Headquarters, compliance, accounting and campaign-finance reporting.',
  },
] satisfies SpendingItem[];

/** A rule with an amount; its sentence is built from the amount so the figure exists once. */
function amountRule(label: string, amount: number, detail: (usd: string) => string): ContributionRule {
  return { label, amount, detail: detail(formatUsd(amount)) };
}

/** Contribution rules (spec section 9). Amounts are whole dollars. */
export const contributionRules = [
  amountRule('Individuals', 12_000, (usd) => `Up to ${usd} per election cycle.`),
  amountRule('Large political committees', 24_000, (usd) => `Up to ${usd} per election cycle.`),
  amountRule(
    'Corporations and other organizations',
    12_000,
    (usd) => `Up to ${usd} per election cycle, by check only.`,
  ),
  amountRule('Cash', 100, (usd) => `No more than ${usd} in cash per contributor per year.`),
  amountRule(
    'Itemized reporting',
    200,
    (usd) => `Contributions over ${usd} are itemized in campaign-finance reports.`,
  ),
  amountRule(
    'Late contributions',
    1_000,
    (usd) =>
      `Contributions of ${usd} or more received within 20 days of an election are reported within 48 hours.`,
  ),
  amountRule('Employer and occupation', 250, (usd) => `Required for contributions over ${usd}.`),
  { label: 'Foreign nationals', detail: 'Contributions from foreign nationals are prohibited.' },
] satisfies ContributionRule[];

export const donorCertification =
  'By contributing, you certify that you are a U.S. citizen or lawfully admitted permanent resident, that the contribution is made from your own funds, and that you will not be reimbursed for it by any person or organization.';

export const donateDisclaimer = `Contributions to ${candidate.committeeName} are not tax-deductible for federal or state income tax purposes. Donations are processed securely by a third-party donation provider; the campaign does not receive or store your card details.`;

/** The intro's lead once the polls have closed, by voice ("ended" retires the debt: vote.ts afterCopy). */
export const donateAfterElection = {
  awaiting: `Contributions now help the campaign finish its work and pay its remaining bills. Thank you for supporting a better-run ${candidate.city}.`,
  won: `Contributions now help the campaign close its books and prepare an open, accountable transition at City Hall.`,
  lost: `Contributions now help the campaign pay its remaining bills and close its books with nothing owed.`,
};
