import type { HelpArea, Impact, WeeklyGoal } from '../lib/schemas/content';
import type { VolunteerState } from '../lib/schemas/public-forms';
import { candidate } from './campaign.ts';

/* Volunteer page copy (spec section 2 "Volunteer" and section 9). */

export const volunteerIntro = {
  heading: 'Volunteer',
  lead: `Campaigns are won by neighbors talking to neighbors. Join the team working to elect ${candidate.fullName}.`,
};

/** The six ways to help. */
export const helpAreas = [
  {
    title: 'Door-to-Door Canvassing',
    description: 'Talk with voters in their neighborhoods and share the reform agenda.',
    icon: 'door',
  },
  {
    title: 'Phone Banking',
    description: 'Call supporters and undecided voters from home or the campaign office.',
    icon: 'phone',
  },
  {
    title: 'Text Banking',
    description: 'Send personal text messages to voters about events and early voting.',
    icon: 'message',
  },
  {
    title: 'Event Planning',
    description: 'Help organize town halls, meet-and-greets and community events.',
    icon: 'calendar',
  },
  {
    title: 'Digital Outreach',
    description: 'Share campaign content, write posts and help grow the online community.',
    icon: 'laptop',
  },
  {
    title: 'Other Skills',
    description: 'Design, photography, translation, data entry, driving voters: tell us what you do best.',
    icon: 'star',
  },
] satisfies HelpArea[];

/**
 * Weekly volunteer goals (spec section 9). The page shows the stored goal
 * records (staff edit them); these are the figures every store starts with
 * (src/lib/server/content/progress.ts `defaultGoals`, and the local seed).
 */
export const weeklyGoals = [
  { target: 15, label: 'New volunteer recruits' },
  { target: 500, label: 'Voter contacts' },
  { target: 3, label: 'Events staffed' },
  { target: 200, label: 'Volunteer hours' },
] satisfies WeeklyGoal[];

/** Headings and phrases around the stored progress figures on the volunteer page. */
export const progressCopy = {
  goalsHeading: "This Week's Goals",
  campaignHeading: 'Campaign Progress',
  soFar: (current: string, deadline: string) => `${current} so far · by ${deadline}`,
  ofTarget: (target: string) => `of ${target}`,
  unavailable: "This week's figures cannot be loaded right now. Please check back soon.",
};

/** What an hour of help achieves (spec section 9). */
export const volunteerImpact = [
  { effort: '1 hour', activity: 'of phone banking', result: 'reaches 20-30 voters' },
  { effort: '2 hours', activity: 'of canvassing', result: 'covers 40-60 homes' },
  { effort: '4 hours', activity: 'of event support', result: 'engages 100+ voters' },
] satisfies Impact[];

/** Labels for the volunteer form's state select; keys are the schema's enum. */
export const volunteerStateLabels = {
  LA: 'Louisiana',
  AL: 'Alabama',
  AR: 'Arkansas',
  FL: 'Florida',
  GA: 'Georgia',
  MS: 'Mississippi',
  TX: 'Texas',
  Other: 'Other',
} satisfies Record<VolunteerState, string>;

export const volunteerSuccess = {
  heading: 'Thank you for volunteering!',
  text: 'A member of the team will reach out soon with next steps.',
  again: 'Sign Up Another Volunteer',
};

/** The intro's lead once the polls have closed, by voice (docs/decisions/157-election-calendar.md). */
export const volunteerAfterElection = {
  awaiting: `Thank you to every neighbor who knocked on doors, made calls and sent texts for this campaign. Sign up to stay part of the work for a better-run ${candidate.city}.`,
  won: `Thank you to every neighbor who helped win this election. Join the team to help shape the work ahead at City Hall.`,
  lost: `Thank you to every neighbor who knocked on doors, made calls and sent texts for this campaign. The work for a better-run ${candidate.city} goes on: sign up to stay involved.`,
  ended: `Thank you to every neighbor who knocked on doors, made calls and sent texts for this campaign.`,
};
