import { IDENTITY } from './identity.ts';
import { CAPTCHA_REQUIRED, FIELD_MESSAGES } from '../lib/schemas/public-forms.ts';
import { VOTE_PLAN_MESSAGES } from '../lib/vote-plan.ts';

/*
 * Election copy that follows the stage (docs/decisions/157-election-calendar.md): the footer's dates, the
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
  /** The same deadlines once they have passed: a record, not an instruction. */
  deadlinesPast: {
    inPerson: 'In-person registration closed',
    byMail: 'Registration by mail closed',
    online: 'Online registration closed',
    mailRequest: 'Mail ballot requests closed',
    mailReturn: 'Mail ballots were due',
    electionDay: 'Election Day was',
    results: 'Results were expected',
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
  /** Once early voting is over, its days in one line instead of the table: "Early voting ran September 27 - October 4 at 4 sites." */
  earlyRan: (range: string, sites: number) =>
    `Early voting ran ${range}${sites > 0 ? ` at ${sites === 1 ? 'one site' : `${sites} sites`}` : ''}.`,
  /** Table headings of the early-voting days. */
  dayColumn: 'Day',
  hoursColumn: 'Hours',
  sitesHeading: 'Early-voting sites',
  mapLink: (name: string) => `Map of ${name}`,
  electionDayHeading: 'Election Day',
  pollHours: (open: string, close: string) => `Polls are open from ${open} to ${close}.`,
  pollHoursPast: (open: string, close: string) => `Polls were open from ${open} to ${close}.`,
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

/**
 * Make a plan to vote (docs/decisions/158-plan-to-vote.md): the form on /vote, the plan's own page (the
 * confirmation, with "add to calendar", "I voted" and "Stop reminders") and the reminders
 * (docs/decisions/158-plan-to-vote.md). Dates, hours and places come in already written out.
 */
export const planCopy = {
  heading: 'Make a plan to vote',
  lead: 'Pick your day and how you will vote. We will send you one reminder the evening before, with your places and hours.',
  formLabel: 'Plan to vote',
  day: 'When will you vote?',
  /** The lists' first, empty choice: a plan names its day and way on purpose. */
  chooseDay: 'Choose a day',
  earlyDay: (day: string) => `${day} (early voting)`,
  electionDay: (day: string) => `${day} (Election Day)`,
  method: 'How will you vote?',
  chooseMethod: 'Choose one',
  methods: { 'in-person': 'In person', mail: 'By mail' },
  timeOfDay: 'What time of day? (optional)',
  noTime: 'No preference',
  times: { morning: 'Morning', midday: 'Midday', afternoon: 'Afternoon', evening: 'Evening' },
  bringing: 'Who will you bring? (optional)',
  bringingHint: 'A friend, family, a neighbor…',
  name: 'Your name',
  phone: 'Mobile phone',
  email: 'Email',
  contactHint: 'A phone number or an email, so we can remind you.',
  /** Under the form: a plan is changed only from its own page. */
  ownPlanNote:
    'Made a plan with this phone or email before? That plan does not change from here: change it on its own page, with the link from your confirmation or your reminders.',
  submit: 'Save my plan',
  submitting: 'Saving…',
  closed: VOTE_PLAN_MESSAGES.closed,
  /** The server's messages (VOTE_PLAN_MESSAGES) as the page shows them, and the island's own. */
  errors: {
    ...VOTE_PLAN_MESSAGES,
    phone: FIELD_MESSAGES.phone,
    email: FIELD_MESSAGES.email,
    captcha: CAPTCHA_REQUIRED,
    offline: 'We could not save your plan. Please check your connection and try again.',
  },
  /** The plan page. */
  page: {
    title: 'Your plan to vote',
    description: 'Your plan to vote: your day, your places and hours, and a calendar reminder.',
    heading: 'Your plan to vote',
    saved: 'Your plan is saved.',
    when: 'When',
    how: 'How',
    timeOfDay: 'Time of day',
    bringing: 'Bringing',
    where: 'Where and when',
    remindedBy: 'Reminders',
    remindText: 'By text',
    remindEmail: 'By email',
    noReminders: 'None (you did not ask for reminders)',
    addToCalendar: 'Add to calendar (.ics)',
    changePlan: 'Change my plan',
    votedButton: 'I voted',
    votedHeading: 'Thank you for voting!',
    votedText: 'You told us you voted. We will not remind you again.',
    stopButton: 'Stop my reminders',
    stoppedText: 'Your reminders are stopped.',
    resumeButton: 'Resume my reminders',
    changeHeading: 'Change my plan',
    changeLead:
      'Choose another day or way to vote. If you stopped your reminders, they stay stopped until you resume them here.',
    changeSubmit: 'Save the change',
    actionsLabel: 'Update your plan',
    badLink: 'This link is not valid. Please use the link from your confirmation or your latest reminder.',
    unavailable: 'We could not load your plan just now. Please try again in a minute.',
  },
  /** One day's places and hours, as the page, the emails and the calendar file say them. */
  earlyWhere: (hours: string, sites: string) => `Early voting, ${hours}, at any of these sites: ${sites}`,
  electionDayWhere: (hours: string) => `Election Day, polls open ${hours}, at your assigned polling place`,
  mailWhere: (deadline: string) => `Mail your ballot by this day: it must arrive by ${deadline}`,
  calendarTitle: { 'in-person': 'Vote', mail: 'Mail my ballot' },
  /** The reminders: a text (short; the link has the rest) and an email. */
  reminder: {
    eveText: (program: string, day: string, how: string, link: string) =>
      `${program}: Reminder: your plan is to vote ${how} tomorrow, ${day}. Places and hours: ${link} Reply STOP to opt out.`,
    morningText: (program: string, close: string, link: string) =>
      `${program}: Today is Election Day: polls are open until ${close}. Voted already? Tell us: ${link} Reply STOP to opt out.`,
    eveSubject: (day: string) => `Your plan to vote: tomorrow, ${day}`,
    morningSubject: 'Today is Election Day',
    eveIntro: (how: string, day: string) => `Your plan is to vote ${how} tomorrow, ${day}.`,
    morningIntro: (close: string) =>
      `Today is Election Day. Polls are open until ${close}: if you are in line by then, you can vote.`,
    how: { 'in-person': 'in person', mail: 'by mail' },
    pollingPlace: (href: string) => `Find your polling place: ${href}`,
    planLink: (href: string) => `Your plan, "I voted" and the calendar file: ${href}`,
    stopLink: (href: string) => `Stop these reminders: ${href}`,
  },
};

/**
 * After the election (docs/decisions/157-election-calendar.md): the "won" next steps on the home page, and what
 * the campaign-ended mode puts in place of the donate lead and the closed sign-ups.
 */
export const afterCopy = {
  nextHeading: 'What comes next',
  next: [
    'The transition: over the coming weeks we will name the transition team and publish its plan, in the open.',
    'The first 100 days: the platform becomes the agenda, starting with the budget review and the drainage repairs.',
    'Stay involved: the volunteers who carried this campaign are invited to help shape the work ahead.',
  ],
  retireDebt: {
    heading: 'Help Retire the Campaign’s Debt',
    lead: 'The campaign has ended. Contributions now pay the bills it left behind, so it can close its books with nothing owed.',
  },
  closedHeading: 'Stay in touch',
  volunteerClosed:
    'The campaign has ended, so we are not taking volunteer sign-ups. Thank you to everyone who helped.',
  textClosed: 'The campaign has ended, so text sign-up is closed. Thank you for following along.',
  stayInTouch: { label: 'Subscribe to our newsletter', href: '/blog#newsletter-form' },
};
