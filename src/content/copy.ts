import type { Lang } from '../lib/lang.ts';
import * as about from './about.ts';
import * as campaign from './campaign.ts';
import * as contact from './contact.ts';
import * as donate from './donate.ts';
import * as forms from './forms.ts';
import * as home from './home.ts';
import * as legal from './legal.ts';
import * as metadata from './metadata.ts';
import * as pages from './pages.ts';
import * as platform from './platform.ts';
import * as ui from './ui.ts';
import * as volunteer from './volunteer.ts';
import * as vote from './vote.ts';
import * as aboutEs from './es/about.ts';
import * as campaignEs from './es/campaign.ts';
import * as contactEs from './es/contact.ts';
import * as donateEs from './es/donate.ts';
import * as formsEs from './es/forms.ts';
import * as homeEs from './es/home.ts';
import * as legalEs from './es/legal.ts';
import * as metadataEs from './es/metadata.ts';
import * as pagesEs from './es/pages.ts';
import * as platformEs from './es/platform.ts';
import * as uiEs from './es/ui.ts';
import * as volunteerEs from './es/volunteer.ts';
import * as voteEs from './es/vote.ts';
import { localize, type Translation } from './translation.ts';

/*
 * The public site's copy in every language (docs/decisions/166-spanish.md). English modules are the
 * source; each language has one module per English module under
 * src/content/<lang>/, typed by the English module's shape (`Translation`), so
 * a missing text fails `astro check`. Pages call `copyFor(lang)` once and read
 * everything from it; islands get their words as props.
 */

/** The English copy modules, by name (the first part of every staleness key). */
export const ENGLISH = {
  about,
  campaign,
  contact,
  donate,
  forms,
  home,
  legal,
  metadata,
  pages,
  platform,
  ui,
  volunteer,
  vote,
};
export type Copy = typeof ENGLISH;

/** Every translation, typed by the English: a text left out is a type error. */
export const TRANSLATIONS: Record<Exclude<Lang, 'en'>, { [M in keyof Copy]: Translation<Copy[M]> }> = {
  es: {
    about: aboutEs,
    campaign: campaignEs,
    contact: contactEs,
    donate: donateEs,
    forms: formsEs,
    home: homeEs,
    legal: legalEs,
    metadata: metadataEs,
    pages: pagesEs,
    platform: platformEs,
    ui: uiEs,
    volunteer: volunteerEs,
    vote: voteEs,
  },
};

const cache = new Map<Lang, Copy>([['en', ENGLISH]]);

/** All of the site's copy in a language (the English facts, that language's words). */
export function copyFor(lang: Lang): Copy {
  let copy = cache.get(lang);
  if (!copy) {
    const translation = TRANSLATIONS[lang as Exclude<Lang, 'en'>];
    copy = Object.fromEntries(
      Object.entries(ENGLISH).map(([name, module]) => [
        name,
        localize(module, translation[name as keyof Copy] as never),
      ]),
    ) as Copy;
    cache.set(lang, copy);
  }
  return copy;
}
