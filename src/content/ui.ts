import type { ArticleCategory } from '../lib/schemas/category.ts';
import type { EventType } from '../lib/schemas/event.ts';
import {
  CAPTCHA_REQUIRED,
  FIELD_MESSAGES,
  NAME_CHARACTERS_MESSAGE,
  TEXT_SIGNUP_MESSAGES,
  TEXT_SIGNUP_PHONE_NEEDED,
} from '../lib/schemas/public-forms.ts';
import { RSVP_MESSAGES } from '../lib/schemas/rsvp-rules.ts';
import { candidate } from './campaign.ts';

/*
 * The site's own words outside the page copy modules (docs/decisions/166-spanish.md): the page
 * shell, section headings written into the pages, and what the islands say
 * (labels, toasts, validation). Pages pass the islands' words as props, so the
 * islands carry no copy of their own and no second language in their bundles.
 */

/** Words about the campaign's images (src/content/media.ts holds the files). */
export const mediaCopy = {
  portraitAlt: `Portrait of ${candidate.fullName}, candidate for ${candidate.office}`,
};

export const layoutCopy = {
  skipLink: 'Skip to main content',
  /** Link text of the language switcher: always in the language it leads to (src/content/es/ui.ts). */
  switchTo: 'English',
  /** The switcher's accessible description, in the current page's language. */
  switchLabel: 'Read this page in English',
  /** Offered on an English page to a browser that prefers the other language (dismissible). */
  offer: 'Read this page in English',
  offerDismiss: 'Dismiss',
};

export const headerCopy = {
  brandOffice: `for ${candidate.city} ${candidate.office}`,
  menu: 'Menu',
  closeMenu: 'Close menu',
  mainNav: 'Main',
  mainMenu: 'Main menu',
};

export const footerCopy = {
  socialMedia: 'Social media',
  footerNav: 'Footer',
  electionDay: 'Election Day:',
  earlyVoting: 'Early Voting:',
};

export const homeCopy = {
  heroHeading: `${candidate.fullName} for ${candidate.office}`,
  learnMore: 'Learn More',
  learnMoreAbout: `about ${candidate.fullName}`,
  quoteCaption: `${candidate.fullName}, on the One-Term Pledge`,
  pillarsHeading: 'Platform for Change',
  fullPlatform: 'See the Full Platform',
  rotatingHeadline: 'rotating headline',
  rotatingQuote: 'rotating quote',
};

export const aboutCopy = {
  biographyHeading: 'Biography',
  valuesHeading: 'Core Values',
};

export const platformCopy = {
  prioritiesLabel: 'Priorities',
  priorityNumber: (n: number) => `Priority ${n}: `,
};

export const contactPageCopy = {
  infoHeading: 'Contact Information',
  emailHeading: 'Email',
  phone: 'Phone',
  office: 'Office',
  officeHours: 'Office Hours',
  outreachHeading: 'Press, Endorsements and Events',
  faqHeading: 'Frequently Asked Questions',
  /** Every upcoming public event (docs/decisions/162-public-pages-and-performance.md). */
  eventsHeading: 'Upcoming Events',
};

export const donatePageCopy = {
  amountHeading: 'Choose an Amount',
  suggested: 'Suggested contributions:',
  spendingHeading: 'Where Your Money Goes',
  budget: (label: string) => `Campaign budget: ${label}`,
  rulesHeading: 'Contribution Limits and Rules',
  certification: 'Donor certification.',
  /** Shown on a translated donate page when no form in that language is configured. */
  formInEnglish: '',
  /** Under the frame: the provider's form on its own page (works without JavaScript, or when a blocker hides the frame). */
  openForm: 'Or give on the secure donation page',
  /** Where a check goes while online giving is off (docs/decisions/165-donations.md). */
  byCheck: (committee: string) => `Make your check payable to ${committee} and mail it to:`,
};

export const volunteerPageCopy = {
  areasHeading: 'Ways to Help',
  signupHeading: 'Sign Up to Volunteer',
  impactHeading: 'Your Impact',
};

export const articleCopy = {
  /** After an article's title in <title>. */
  titleSuffix: `${candidate.fullName} for ${candidate.office}`,
  keywords: `${candidate.fullName}, ${candidate.city} ${candidate.office}, news`,
  unavailableHeading: 'Temporarily Unavailable',
  unavailableText: 'This article cannot be loaded right now. Please try again in a minute.',
  backToNews: 'Back to News',
  newsletterLabel: 'Newsletter',
  /** Shown above an article that has no version in the page's language yet. */
  untranslated: '',
};

export const legalCopy = {
  lastUpdated: 'Last updated:',
  contents: 'Contents',
  /** Shown on translated legal pages: the English text is the one counsel approved. */
  translationNote: '',
};

/** What the public form islands say (passed as props by the pages). */
export const formUi = {
  firstName: 'First Name',
  lastName: 'Last Name',
  fullName: 'Full Name',
  email: 'Email',
  phone: 'Phone',
  phoneOptional: 'Phone (optional)',
  mobile: 'Mobile Number',
  address1: 'Address Line 1',
  address2: 'Address Line 2 (optional)',
  city: 'City',
  state: 'State',
  zip: 'ZIP Code (optional)',
  selectState: 'Select a state',
  subject: 'Subject',
  selectSubject: 'Select a subject',
  message: 'Message',
  interests: 'How would you like to help? (optional)',
  opensInNewTab: '(opens in a new tab)',
  privacyPolicy: 'Privacy Policy',
  termsOfUse: 'Terms of Use',
  captchaRequired: CAPTCHA_REQUIRED,
  captchaHuman: 'I am human',
  /** The local test widget (no Turnstile site key configured). */
  captchaLegend: 'Local test mode: captcha not configured',
  captchaLocalNote: 'In local test mode, tick the box below instead.',
  captchaLoadError: 'The CAPTCHA could not load. Please check your connection and reload the page.',
  tryAgain: 'Try again',
  tryLater: 'Please try again later',
  textSignup: {
    formLabel: 'Sign up for text messages',
    submit: 'Sign Up For Text Messages',
    submitting: 'Signing Up...',
    success: 'Successfully subscribed!',
    successText: "You're signed up for text messages!",
    failure: 'Subscription failed',
    /** Spec section 5: the server's own messages (public-forms.ts), in English. */
    firstNameTitle: TEXT_SIGNUP_MESSAGES.firstName.title,
    firstNameText: TEXT_SIGNUP_MESSAGES.firstName.description,
    consentTitle: TEXT_SIGNUP_MESSAGES.consent.title,
    consentText: TEXT_SIGNUP_MESSAGES.consent.description,
    /** The server's refusal of a sign-up with neither phone nor email (public-forms.ts). */
    phoneNeeded: TEXT_SIGNUP_PHONE_NEEDED,
  },
  volunteer: {
    formLabel: 'Volunteer sign-up',
    submit: 'Sign Up to Volunteer',
    submitting: 'Submitting...',
    saved:
      "We couldn't reach our server just now, so your sign-up is saved in this browser and will be sent automatically the next time you visit this site. Our volunteer team will contact you once it arrives.",
    /** {0}: the date the sign-up was saved. Island words are strings (props must serialise): see `fill`. */
    resubmit:
      'Your saved sign-up from {0} could not be sent automatically. Please complete the CAPTCHA and submit it again.',
    offline: 'We could not send your sign-up. Please check your connection and try again.',
    checkForm: 'Please check the form and try again.',
  },
  contact: {
    formLabel: 'Send us a message',
    submit: 'Send Message',
    submitting: 'Sending...',
    success: 'Message sent successfully!',
    failure: 'Failed to send message',
    failureText: 'Please try again later or contact us directly.',
  },
  /** A name field's refusal of invisible format characters (any name field: first, last, full, an RSVP's). */
  nameCharacters: NAME_CHARACTERS_MESSAGE,
  /** The field messages shown beside a field (the server's are FIELD_MESSAGES in public-forms.ts). */
  fields: {
    firstName: FIELD_MESSAGES.firstName,
    lastName: FIELD_MESSAGES.lastName,
    name: FIELD_MESSAGES.name,
    email: FIELD_MESSAGES.email,
    phone: FIELD_MESSAGES.phone,
    address1: FIELD_MESSAGES.address,
    city: FIELD_MESSAGES.city,
    state: FIELD_MESSAGES.state,
    zip: FIELD_MESSAGES.zip,
    subject: FIELD_MESSAGES.subject,
    message: FIELD_MESSAGES.message,
  },
};
export type FormUi = typeof formUi;

/** Words of the smaller islands (carousel, rotating text, lists, sharing, donations). */
export const islandUi = {
  pause: 'Pause',
  resume: 'Resume',
  play: 'Play',
  carouselLabel: 'Campaign videos',
  slideOf: '{0} of {1}',
  slideStatus: 'Slide {0} of {1}',
  playVideo: 'Play video: {0}',
  /** The inline player's title (its accessible name) once Play has swapped it in. */
  videoPlayer: 'Video: {0}',
  donateNow: 'Donate Now',
  previousSlide: 'Previous slide',
  nextSlide: 'Next slide',
  pauseSlideshow: 'Pause slideshow',
  playSlideshow: 'Play slideshow',
  newsUnavailable: 'News could not be loaded right now. Please try again later.',
  noNews: 'No news articles yet. Check back soon.',
  readMore: 'Read More',
  eventsUnavailable: 'Events could not be loaded right now. Please try again later.',
  noEvents: 'No upcoming events are scheduled right now. Check back soon.',
  registrationRequired: 'Registration Required',
  openToAll: 'Open to All',
  date: 'Date',
  time: 'Time',
  location: 'Location',
  maxAttendees: 'Max attendees',
  rsvpFor: 'for {0}',
  registerNow: 'Register Now',
  registerFor: 'for {0} (opens in a new tab)',
  addToCalendar: 'Add to calendar',
  rsvp: 'RSVP',
  /** {0}: the campaign's name; the calendar name of the .ics downloads. */
  calendarName: '{0} Events',
  /** Event types (EVENT_TYPES in src/lib/schemas/event.ts; the dashboard keeps the English). */
  eventTypeLabels: {
    town_hall: 'Town Hall',
    fundraiser: 'Fundraiser',
    community_event: 'Community Event',
    debate: 'Debate',
    rally: 'Rally',
  } satisfies Record<EventType, string>,
  /** The category badge of an article (spec section 9, `categoryFor`), by its English name. */
  categoryLabels: {
    Policy: 'Policy',
    'Campaign News': 'Campaign News',
    Events: 'Events',
    News: 'News',
  } satisfies Record<ArticleCategory, string>,
  chooseAmount: 'Choose an amount',
  donationFrame: 'Secure donation form',
  donationsNotConfigured: 'Online donations are not configured yet.',
  donationsNotConfiguredText: 'Please check back soon, or contact the campaign to give by check.',
  share: 'Share',
  linkCopied: 'Link copied!',
  copyFailed: 'Could not copy the link',
  raisedOf: 'raised of {0}',
  percentOfGoal: '{0}% of the goal',
  goalFallback: 'Our fundraising goal',
};
export type IslandUi = typeof islandUi;

/** One event's page (/events/<id>, /es/events/<id>) and its RSVP form. */
export const eventPageCopy = {
  titleSuffix: `${candidate.fullName} for ${candidate.office}`,
  description: (date: string, time: string, location: string) => `${date}, ${time} at ${location}.`,
  keywords: (type: string) => `${candidate.fullName}, ${candidate.city} ${candidate.office}, events, ${type}`,
  notFoundTitle: 'Event Not Found',
  notFoundDescription: 'This event is not on the calendar, has passed or is private.',
  notFoundKeywords: `${candidate.fullName}, events`,
  notFoundHeading: 'Event Not Found',
  notFoundText: 'This event is not on the calendar: it may have passed or been removed.',
  unavailableHeading: 'Temporarily Unavailable',
  unavailableText: 'This event cannot be loaded right now. Please try again in a minute.',
  detailsHeading: 'Details',
  date: 'Date',
  time: 'Time',
  location: 'Location',
  capacity: 'Capacity',
  people: (n: number) => `${n} people`,
  registerNow: 'Register Now',
  back: { label: 'Back to News and Events', href: '/blog' },
  /** Shown on a page in another language when the event has no version in it. */
  untranslated: '',
  rsvpHeading: 'RSVP',
  rsvpIntro: (title: string) =>
    `Tell us you're coming to ${title}. We'll email your confirmation with a calendar invitation.`,
  /** What the RSVP form and its island say (island words are strings with {0} placeholders: see `fill`). */
  rsvp: {
    formLabel: 'RSVP',
    name: 'Name',
    email: 'Email',
    phone: 'Mobile number (optional)',
    guests: 'Guests you are bringing',
    submit: 'RSVP',
    submitting: 'Sending...',
    offline: 'We could not send your RSVP. Please check your connection and try again.',
    full: "This event is full. You can still RSVP to join the waitlist; we'll email you if a seat opens up.",
    seatsLeft: '{0} of {1} seats left.',
    goingHeading: "You're going!",
    waitlistedHeading: "You're on the waitlist",
    waitlistPosition: 'Your place on the waitlist: {0}',
    going: RSVP_MESSAGES.goingDetail,
    waitlisted: RSVP_MESSAGES.waitlisted,
    notTaking: RSVP_MESSAGES.notTaking,
    /** The field messages (the server's are in src/lib/schemas/rsvp.ts and public-forms.ts). */
    fields: {
      name: RSVP_MESSAGES.name,
      email: FIELD_MESSAGES.email,
      phone: FIELD_MESSAGES.phone,
      phoneForSms: RSVP_MESSAGES.phoneForSms,
      guests: 'Choose the number of guests',
    },
  },
};
export type RsvpWords = typeof eventPageCopy.rsvp;

/** The RSVP cancellation page (/rsvp/cancel, /es/rsvp/cancel): the link in the RSVP emails. */
export const rsvpCancelCopy = {
  title: 'Cancel Your RSVP',
  description: 'Cancel an RSVP to a campaign event so someone on the waitlist can come.',
  heading: 'Cancel Your RSVP',
  /** Above the event's details: whose RSVP this page is about. */
  yourRsvp: 'Your RSVP to',
  intro: "Can't make it? Cancelling frees your seat for the next person on the waitlist.",
  formLabel: 'Cancel your RSVP',
  submit: 'Cancel my RSVP',
  submitting: 'Cancelling...',
  cancelledHeading: 'RSVP Cancelled',
  /** After the button: the server's words, one per answer. */
  cancelled: RSVP_MESSAGES.cancelled,
  alreadyCancelled: RSVP_MESSAGES.alreadyCancelled,
  badLink: RSVP_MESSAGES.badLink,
  failed: 'We could not cancel your RSVP right now. Please try again.',
  unavailable: 'This page cannot be loaded right now. Please try again in a minute.',
  eventLink: 'Event details',
  allEvents: { label: 'See all events', href: '/blog#events' },
};
export type RsvpCancelWords = typeof rsvpCancelCopy;
