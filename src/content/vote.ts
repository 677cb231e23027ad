import { IDENTITY } from './identity.ts';

/*
 * Election copy that follows the stage (docs/decisions/087-election-calendar.md): the footer's dates, the
 * countdown, the stage line on the home page and /vote, and the voter-help page. Dates come in already written
 * out in the page's language; which phrase is used is decided by src/content/election-lines.ts from the stage.
 * The official links are configured here (Louisiana Secretary of State), verified against the Secretary of
 * State's site; staff change them here.
 */

export const electionWords = {
  /** An early-voting period: "September 27 - October 4" (spec section 1). */
  range: (from: string, to: string) => `${from} - ${to}`,
  /** A phrase placed after a past-tense label ("Early voting ran" + range): as it is in English. */
  midSentence: (phrase: string) => phrase,
  footer: {
    electionDayPast: 'Election Day was',
    earlyVotingPast: 'Early voting ran',
    runoffDay: 'Runoff Election Day:',
    runoffDayPast: 'The runoff was',
    runoffEarlyVoting: 'Runoff early voting:',
    howToVote: 'How to vote',
  },
  countdown: {
    days: (n: number) => (n === 1 ? '1 day to Election Day' : `${n} days to Election Day`),
    runoffDays: (n: number) => (n === 1 ? '1 day to the runoff' : `${n} days to the runoff`),
    today: 'Today is Election Day',
  },
  /** One line per stage; `election` is "Election Day" or "the runoff" in the sentence's place. */
  stage: {
    registrationOpen: (deadline: string) => `Register to vote by ${deadline}, then make a plan to vote.`,
    registrationClosed: (start: string) => `Registration has closed. Early voting starts ${start}.`,
    earlyVotingToday: (open: string, close: string) => `Early voting is open today, ${open} to ${close}.`,
    earlyVotingNext: (day: string) => `Early voting continues ${day}.`,
    finalDays: (day: string, open: string, close: string) =>
      `Early voting is over. Polls are open on ${day} from ${open} to ${close}.`,
    pollsOpen: (close: string) =>
      `Polls are open today until ${close}. If you are in line by ${close}, you can vote.`,
    pollsClosed: 'Polls have closed. Results are being counted.',
    won: `We won. Thank you to every voter and volunteer: now the work begins.`,
    lost: `The votes are counted and this time we came up short. Thank you for everything you gave this campaign.`,
    ended: 'The campaign has ended. Thank you for being part of it.',
    over: (day: string) => `The election was held on ${day}. Thank you for voting.`,
  },
  runoffBadge: 'Runoff',
};

/** The election's entries in the events calendar feed (src/lib/election-ics.ts). */
export const icsWords = {
  electionDay: 'Election Day: polls open',
  runoffDay: 'Runoff Election Day: polls open',
  earlyVoting: 'Early voting',
  runoffEarlyVoting: 'Runoff early voting',
  details: 'Sites, hours and what to bring:',
};

export const voteCopy = {
  heading: 'How to Vote',
  lead: `Everything you need to vote in ${IDENTITY.city}: registration, early voting, Election Day and help at the polls.`,
  navLabel: 'Vote',
  datesHeading: 'Key dates',
  deadlines: {
    inPerson: 'Register in person by',
    byMail: 'Register by mail (postmarked) by',
    online: 'Register online by',
    mailRequest: 'Request a mail ballot by',
    mailReturn: 'Return your mail ballot by',
    electionDay: 'Election Day',
    results: 'Results expected',
  },
  /** "September 10, 2025 at 4:30 PM". */
  at: (date: string, time: string) => `${date} at ${time}`,
  /** "7:00 AM to 8:00 PM". */
  hours: (open: string, close: string) => `${open} to ${close}`,
  registerHeading: 'Register and check your registration',
  registerText:
    'You can register in person at the Registrar of Voters, by mail, or online. Check your registration, your polling place and your sample ballot on the Secretary of State’s voter portal.',
  links: [
    { label: 'Register to vote online', href: 'https://www.sos.la.gov/ElectionsAndVoting/RegisterToVote/' },
    { label: 'Check your registration and polling place', href: 'https://voterportal.sos.la.gov/' },
    { label: 'Request a mail ballot', href: 'https://voterportal.sos.la.gov/' },
  ],
  earlyHeading: 'Early voting',
  earlyToday: 'Open today',
  earlyNone: 'There is no early voting for this election.',
  earlyOver: 'Early voting is over for this election.',
  /** Table headings of the early-voting days. */
  dayColumn: 'Day',
  hoursColumn: 'Hours',
  sitesHeading: 'Early-voting sites',
  mapLink: (name: string) => `Map of ${name}`,
  electionDayHeading: 'Election Day',
  pollHours: (open: string, close: string) => `Polls are open from ${open} to ${close}.`,
  pollingPlace: { label: 'Find your polling place', href: 'https://voterportal.sos.la.gov/' },
  bringHeading: 'What to bring',
  bring: [
    'A photo ID: a Louisiana driver’s license, the LA Wallet digital license, a Louisiana special ID card, or another generally recognized picture ID with your name and signature.',
    'No photo ID? You can still vote: bring a current utility bill, bank statement, paycheck or government document with your name and address, and sign an affidavit at the polls.',
    'Your sample ballot or notes (you may bring them into the booth; phones may not be used to record your ballot).',
  ],
  helpHeading: 'Accessibility and language help',
  help: [
    'Every polling place has an accessible voting machine. If you have a disability, you may ask for help in the booth from a person of your choice (not your employer or union officer) or from a commissioner.',
    'If you cannot read or understand English well, you may bring a person of your choice to help you vote.',
    `Questions? Call the campaign at ${IDENTITY.phone.display}: we will help you find your polling place or a ride.`,
  ],
};
