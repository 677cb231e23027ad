import { FIELD_MESSAGES, NEWSLETTER_CONFIRM, type PublicFormId } from '../lib/schemas/public-forms.ts';
import { RSVP_MESSAGES } from '../lib/schemas/rsvp-rules.ts';
import { VOTE_PLAN_MESSAGES } from '../lib/vote-plan.ts';
import { RESUBSCRIBE_KEYWORDS } from './consent.ts';
import { IDENTITY } from './identity.ts';

/*
 * Copy of the public forms' outcomes: the confirmation an island shows in
 * place, and the same words on the page a browser form post lands on
 * (src/pages/forms/). One typed shape per form, so a translation fills the
 * same keys.
 */

export interface OutcomeCopy {
  /** Page heading and the island's confirmation heading. */
  heading: string;
  text: string;
  /** The way back (or onward) from the outcome page. */
  link: { label: string; href: string };
}

export interface FormCopy {
  /** What the form is, for the outcome page's title ("Volunteer sign-up"). */
  name: string;
  /** Success outcomes: `sent`, plus any the form declares (public-forms.ts `outcomes`). */
  outcomes: { sent: OutcomeCopy } & Record<string, OutcomeCopy>;
}

export const formCopy = {
  'text-signup': {
    name: 'Text message sign-up',
    outcomes: {
      sent: {
        heading: "You're Signed Up!",
        text: 'Thanks for joining our text updates. Reply STOP at any time to unsubscribe.',
        link: { label: 'Back to the home page', href: '/' },
      },
      opted_out: {
        heading: 'Text START From Your Phone',
        // Also the API's answer (TEXT_SIGNUP_OPTED_OUT): one wording on every path.
        text:
          `This number asked us to stop texting it, so it can't be signed up again from the website. ` +
          `To get our texts again, reply ${RESUBSCRIBE_KEYWORDS.en} (or ${RESUBSCRIBE_KEYWORDS.es}) from that phone ` +
          `to any text you got from ${IDENTITY.smsProgramName}.`,
        link: { label: 'Use Another Number', href: '/#text-signup-form' },
      },
    },
  },
  volunteer: {
    name: 'Volunteer sign-up',
    outcomes: {
      sent: {
        heading: 'Thank you for volunteering!',
        text: 'We received your sign-up. Our volunteer team will contact you soon with next steps.',
        link: { label: 'Sign Up Another Volunteer', href: '/volunteer#volunteer-form' },
      },
    },
  },
  contact: {
    name: 'Contact form',
    outcomes: {
      sent: {
        heading: 'Message sent successfully!',
        text: "We'll get back to you within 24 hours.",
        link: { label: 'Back to the contact page', href: '/contact' },
      },
    },
  },
  newsletter: {
    name: 'Newsletter sign-up',
    outcomes: {
      // Double opt-in (docs/decisions/167-email-and-newsletter.md): the spec's thank-you, then what to do.
      sent: {
        heading: 'Thank you for subscribing!',
        text: `Please check your inbox: we sent you a link to confirm your subscription. It works for ${NEWSLETTER_CONFIRM.days} days, and we add your address to our list only once you confirm.`,
        link: { label: 'Back to News', href: '/blog' },
      },
    },
  },
  'newsletter-confirm': {
    name: 'Newsletter confirmation',
    outcomes: {
      sent: {
        heading: "You're Subscribed!",
        text: "Thank you for confirming. We'll keep you posted on campaign news.",
        link: { label: 'Back to News', href: '/blog' },
      },
      already_confirmed: {
        heading: 'Already Confirmed',
        text: 'This address is already confirmed, so there is nothing more to do. Thank you for following the campaign!',
        link: { label: 'Back to News', href: '/blog' },
      },
    },
  },
  rsvp: {
    name: 'Event RSVP',
    outcomes: {
      sent: {
        heading: "You're Going!",
        text: RSVP_MESSAGES.goingDetail,
        link: { label: 'See all events', href: '/blog#events' },
      },
      waitlisted: {
        heading: "You're on the Waitlist",
        text: RSVP_MESSAGES.waitlisted,
        link: { label: 'See all events', href: '/blog#events' },
      },
    },
  },
  'vote-plan': {
    name: 'Plan to vote',
    outcomes: {
      // Only when the plan's own page cannot be given (a success normally goes there: docs/decisions/158-plan-to-vote.md).
      sent: {
        heading: 'Your Plan Is Saved',
        text: VOTE_PLAN_MESSAGES.saved,
        link: { label: 'How to vote', href: '/vote' },
      },
    },
  },
  'vote-plan-update': {
    name: 'Plan to vote',
    outcomes: {
      sent: {
        heading: 'Your Plan Is Updated',
        text: VOTE_PLAN_MESSAGES.saved,
        link: { label: 'How to vote', href: '/vote' },
      },
      voted: {
        heading: 'Thank You for Voting!',
        text: VOTE_PLAN_MESSAGES.voted,
        link: { label: 'Back to the home page', href: '/' },
      },
      stopped: {
        heading: 'Reminders Stopped',
        text: VOTE_PLAN_MESSAGES.stopped,
        link: { label: 'How to vote', href: '/vote' },
      },
      resumed: {
        heading: 'Reminders On Again',
        text: VOTE_PLAN_MESSAGES.resumed,
        link: { label: 'How to vote', href: '/vote' },
      },
    },
  },
  'rsvp-cancel': {
    name: 'RSVP cancellation',
    outcomes: {
      sent: {
        heading: 'RSVP Cancelled',
        text: RSVP_MESSAGES.cancelled,
        link: { label: 'See all events', href: '/blog#events' },
      },
    },
  },
  'forgot-password': {
    name: 'Forgot password',
    outcomes: {
      sent: {
        heading: 'Email Sent!',
        text: 'If an account with that email exists, a temporary password has been sent to your email address. Please check your inbox and log in with the temporary password.',
        link: { label: 'Return to Login', href: '/admin' },
      },
    },
  },
  'reset-password': {
    name: 'Reset password',
    outcomes: {
      sent: {
        heading: 'Password Reset Successful',
        text: 'Your password has been updated. You can now log in with your new password.',
        link: { label: 'Back to Login', href: '/admin' },
      },
    },
  },
} satisfies Record<PublicFormId, FormCopy>;

/** The outcome page of a refused form post. */
export const refusedCopy = {
  heading: 'Please check the form',
  /** Shown when the form comes back without what was typed (expired, or already shown once). */
  expired: 'This page has expired. Please fill in the form again.',
  /** By HTTP status, when the server's own message is not available. */
  byStatus: {
    400: 'Please check the form and try again.',
    403: 'This form must be sent from our own website. Please try again from the page itself.',
    410: 'This form is closed.',
    413: 'That was too much to send at once. Please shorten your message and try again.',
    429: 'Too many attempts. Please wait a little and try again.',
    503: 'The service is temporarily unavailable. Please try again in a minute.',
  } as Record<number, string>,
  fallback: 'Something went wrong. Please try again.',
};

/**
 * What a form with a captcha says when scripts are off: the captcha needs
 * JavaScript, and there is another way to reach the campaign.
 */
export const captchaNeedsJavaScript = `This form's spam check (CAPTCHA) needs JavaScript. Please turn JavaScript on to send it, or email us at ${IDENTITY.emails.general}.`;

/** The newsletter box's consent line and button. */
export const newsletterForm = {
  label: 'Email address',
  placeholder: 'Your email address',
  submit: 'Subscribe',
  failure: 'Subscription failed',
  formLabel: 'Newsletter sign-up',
  tryLater: 'Please try again later',
  invalidEmail: FIELD_MESSAGES.email,
};

/** The page a newsletter confirmation link opens (src/pages/newsletter/confirm.astro): opening it changes nothing. */
export const newsletterConfirmPage = {
  title: 'Confirm Your Subscription',
  description: 'Confirm your subscription to campaign news by email.',
  heading: 'Confirm Your Subscription',
  text: `Press the button to confirm that you want campaign news from ${IDENTITY.committeeName} at this email address.`,
  formLabel: 'Confirm your newsletter subscription',
  submit: 'Confirm my subscription',
  /** A link without a well-formed token (the server's answer for an unknown or expired one is the same). */
  badLink:
    'This confirmation link is invalid or has expired. Please subscribe again from the newsletter box.',
  subscribeAgain: { label: 'Subscribe again', href: '/blog#newsletter-form' },
};

/**
 * The emails the newsletter box sends (in the language of the box): the
 * confirmation link, or, for an address already on the list, a note that
 * there is nothing to do (the form answers the same either way).
 */
export const newsletterEmails = {
  confirm: {
    subject: 'Please confirm your subscription',
    text: (link: string) =>
      [
        'Hello,',
        '',
        `Someone (hopefully you) asked to get campaign news from ${IDENTITY.committeeName} at this address, using the newsletter box on our website.`,
        '',
        'To confirm, open this link and press "Confirm my subscription":',
        link,
        '',
        `The link works once and expires in ${NEWSLETTER_CONFIRM.days} days. If you did not ask for this, ignore this email: your address will not be added to our list.`,
        '',
        IDENTITY.committeeName,
      ].join('\n'),
  },
  already: {
    subject: 'You are already subscribed',
    text: [
      'Hello,',
      '',
      `Someone (hopefully you) asked to get campaign news from ${IDENTITY.committeeName} at this address, using the newsletter box on our website. This address is already on our list, so there is nothing more to do.`,
      '',
      IDENTITY.committeeName,
    ].join('\n'),
  },
};
