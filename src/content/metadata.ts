import type { PageKey, PageMeta } from '../lib/schemas/content';
import { candidate } from './campaign.ts';
import { articleNotFoundCopy } from './pages.ts';

/* Per-page title, description and keywords (spec section 1). */

const name = candidate.fullName;
const race = `${candidate.city} ${candidate.office}`;
const suffix = `${name} for ${race}`;
const baseKeywords = `${name}, ${race}, ${candidate.city} election 2025`;

export const pageMeta = {
  home: {
    title: `${suffix} | Reform Candidate, One-Term Pledge`,
    description: `${name} is the reform candidate for ${race}: an accountant with a one-term pledge to fix the city's finances, infrastructure and public safety.`,
    keywords: `${baseKeywords}, reform candidate, one-term pledge`,
  },
  about: {
    title: `About ${name} | ${suffix}`,
    description: `Biography, experience, core values and the one-term pledge of ${name}, candidate for ${race}.`,
    keywords: `${baseKeywords}, biography, one-term pledge, accountant`,
  },
  platform: {
    title: `Platform: Ten Priorities | ${suffix}`,
    description: `Ten priorities for ${candidate.city}: public safety, infrastructure, financial reform, housing, jobs and more.`,
    keywords: `${baseKeywords}, platform, public safety, infrastructure, affordable housing`,
  },
  volunteer: {
    title: `Volunteer | ${suffix}`,
    description: `Join the campaign: canvass, phone bank, text bank, plan events or help online for ${name}.`,
    keywords: `${baseKeywords}, volunteer, canvassing, phone banking`,
  },
  donate: {
    title: `Donate | ${suffix}`,
    description: `Support ${name}'s campaign for ${race}. See how contributions are spent and the contribution rules.`,
    keywords: `${baseKeywords}, donate, contribute, campaign finance`,
  },
  blog: {
    title: `News & Events | ${suffix}`,
    description: `Campaign news, policy updates and upcoming events from the ${name} campaign.`,
    keywords: `${baseKeywords}, news, events, town hall`,
  },
  contact: {
    title: `Contact | ${suffix}`,
    description: `Contact the ${name} campaign: office hours, press, endorsements, speaking requests and FAQ.`,
    keywords: `${baseKeywords}, contact, press, endorsements`,
  },
  vote: {
    title: `How to Vote | ${suffix}`,
    description: `How to vote in ${candidate.city}: registration deadlines, early-voting sites and hours, Election Day poll hours, what to bring and help at the polls.`,
    keywords: `${baseKeywords}, how to vote, early voting, polling place, voter registration`,
  },
  privacy: {
    title: `Privacy Policy | ${suffix}`,
    description: `How the ${candidate.committeeName} campaign collects, uses and protects your information.`,
    keywords: `${baseKeywords}, privacy policy`,
  },
  terms: {
    title: `Terms of Use | ${suffix}`,
    description: `Terms of use for the ${candidate.committeeName} website, text messaging program and donations.`,
    keywords: `${baseKeywords}, terms of use, text messaging terms`,
  },
  admin: {
    title: `Admin Dashboard | ${suffix}`,
    description: 'Campaign staff sign-in and dashboard.',
    keywords: `${baseKeywords}, admin`,
  },
  resetPassword: {
    title: `Reset Password | ${suffix}`,
    description: 'Choose a new password for your campaign staff account.',
    keywords: `${baseKeywords}, reset password`,
  },
  forgotPassword: {
    title: `Forgot Password | ${suffix}`,
    description: 'Request a temporary password for your campaign staff account.',
    keywords: `${baseKeywords}, forgot password`,
  },
  notFound: {
    title: `Page Not Found | ${suffix}`,
    description: 'The page you are looking for could not be found.',
    keywords: `${baseKeywords}`,
  },
  articleNotFound: {
    title: `Article Not Found | ${suffix}`,
    description: articleNotFoundCopy.text,
    keywords: `${baseKeywords}, news`,
  },
} satisfies Record<PageKey, PageMeta>;
