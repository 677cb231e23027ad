import { candidate, newsletter } from './campaign.ts';

/* Copy of the news, article, not-found and staff pages. */

export const notFoundCopy = {
  heading: 'Page Not Found',
  text: "The page you're looking for doesn't exist. Was it added to the router?",
  homeLink: 'Return to Home',
};

export const articleNotFoundCopy = {
  heading: 'Article Not Found',
  text: "The article you're looking for doesn't exist or has been unpublished.",
  backLink: 'Back to News',
};

export const blogCopy = {
  heading: 'News & Events',
  lead: `The latest from the ${candidate.fullName} campaign: policy updates, campaign news and events near you.`,
  eventsHeading: 'Upcoming Events',
  /** The blog shows at most this many upcoming public events (spec section 9). */
  maxUpcomingEvents: 3,
  // The spec's /contact, at its list of every upcoming event (docs/decisions/162-public-pages-and-performance.md).
  viewAllEvents: { label: 'View All Events', href: '/contact#events' },
  articlesHeading: 'Latest News',
  /** Shown when an article has no image. */
  fallbackImage: '/images/article-fallback.svg',
  /** Recommended article image size (spec section 9). */
  recommendedImage: { width: 1200, height: 630 },
  readMore: 'Read More',
  newsletter,
  pager: {
    label: 'News pages',
    newer: 'Newer articles',
    older: 'Older articles',
    status: (page: number, pages: number) => `Page ${page} of ${pages}`,
  },
  /** Heading of /blog/page/2 and on. */
  archiveHeading: (page: number) => `News Archive, Page ${page}`,
  unavailable: 'News could not be loaded right now. Please try again in a minute.',
};

export const adminCopy = {
  heading: 'Campaign Dashboard',
  noscript: 'The staff dashboard needs JavaScript. Please enable it and reload the page.',
};

export const resetPasswordCopy = {
  heading: 'Reset Password',
  lead: 'Choose a new password for your staff account.',
  backToLogin: 'Back to Login',
};

export const forgotPasswordCopy = {
  heading: 'Forgot Password',
  lead: 'Enter the email address on your staff account and we will send you a temporary password.',
  backToLogin: 'Back to Login',
};
