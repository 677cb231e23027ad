import { copyFor } from '../../../src/content/copy';
import { aboutIntro } from '../../../src/content/about';
import { candidate } from '../../../src/content/campaign';
import { contactIntro } from '../../../src/content/contact';
import { donateIntro } from '../../../src/content/donate';
import {
  adminCopy,
  articleNotFoundCopy,
  blogCopy,
  forgotPasswordCopy,
  notFoundCopy,
  resetPasswordCopy,
} from '../../../src/content/pages';
import { platformIntro } from '../../../src/content/platform';
import { volunteerIntro } from '../../../src/content/volunteer';

/* Every route of spec section 2 with the status and h1 it must answer with. */

export interface RouteCase {
  path: string;
  status: number;
  h1: string;
  noindex?: boolean;
}

export const routes: RouteCase[] = [
  { path: '/', status: 200, h1: `${candidate.fullName} for ${candidate.office}` },
  { path: '/about', status: 200, h1: aboutIntro.heading },
  { path: '/platform', status: 200, h1: platformIntro.heading },
  { path: '/donate', status: 200, h1: donateIntro.heading },
  { path: '/volunteer', status: 200, h1: volunteerIntro.heading },
  { path: '/blog', status: 200, h1: blogCopy.heading },
  { path: '/article/no-such-article', status: 404, h1: articleNotFoundCopy.heading, noindex: true },
  { path: '/contact', status: 200, h1: contactIntro.heading },
  { path: '/vote', status: 200, h1: copyFor('en').vote.voteCopy.heading },
  { path: '/privacy-policy', status: 200, h1: 'Privacy Policy' },
  { path: '/terms-of-use', status: 200, h1: 'Terms of Use' },
  { path: '/reset-password', status: 200, h1: resetPasswordCopy.heading, noindex: true },
  { path: '/forgot-password', status: 200, h1: forgotPasswordCopy.heading, noindex: true },
  { path: '/admin', status: 200, h1: adminCopy.heading, noindex: true },
  { path: '/this-page-does-not-exist', status: 404, h1: notFoundCopy.heading, noindex: true },
];

/*
 * The Spanish counterparts (docs/decisions/166-spanish.md): every public page under /es/, with its
 * Spanish heading; the staff pages stay English and have none.
 */
const es = copyFor('es');
export const spanishRoutes: RouteCase[] = [
  { path: '/es', status: 200, h1: es.ui.homeCopy.heroHeading },
  { path: '/es/about', status: 200, h1: es.about.aboutIntro.heading },
  { path: '/es/platform', status: 200, h1: es.platform.platformIntro.heading },
  { path: '/es/donate', status: 200, h1: es.donate.donateIntro.heading },
  { path: '/es/volunteer', status: 200, h1: es.volunteer.volunteerIntro.heading },
  { path: '/es/blog', status: 200, h1: es.pages.blogCopy.heading },
  { path: '/es/contact', status: 200, h1: es.contact.contactIntro.heading },
  { path: '/es/vote', status: 200, h1: es.vote.voteCopy.heading },
  { path: '/es/privacy-policy', status: 200, h1: es.legal.privacyPolicy.title },
  { path: '/es/terms-of-use', status: 200, h1: es.legal.termsOfUse.title },
  {
    path: '/es/article/no-such-article',
    status: 404,
    h1: es.pages.articleNotFoundCopy.heading,
    noindex: true,
  },
  { path: '/es/esta-pagina-no-existe', status: 404, h1: es.pages.notFoundCopy.heading, noindex: true },
];
