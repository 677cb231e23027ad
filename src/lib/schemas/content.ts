import { z } from './zod.ts';

/*
 * Schemas for the campaign copy and facts in src/content/. The data modules
 * declare their values with `satisfies` one of the types below, so a typo or a
 * missing field fails `astro check` / `tsc`. Imports only zod: islands, admin and
 * server code may import these too.
 */

const text = z.string().min(1);

/** Page metadata: every page sets its own title, description and keywords. */
export const PageMetaSchema = z.object({
  title: text,
  description: text,
  /** Comma-separated, as it goes into `<meta name="keywords">`. */
  keywords: text,
});
export type PageMeta = z.infer<typeof PageMetaSchema>;

/** The pages that have a metadata set (spec section 1, plus the utility pages). */
export const PageKeySchema = z.enum([
  'home',
  'about',
  'platform',
  'volunteer',
  'donate',
  'blog',
  'contact',
  'vote',
  'privacy',
  'terms',
  'admin',
  'resetPassword',
  'forgotPassword',
  'notFound',
  'articleNotFound',
]);
export type PageKey = z.infer<typeof PageKeySchema>;

export const CandidateSchema = z.object({
  /** Placeholder name; see docs/decisions/170-campaign-copy-and-identity.md. Every mention of the name derives from here. */
  firstName: text,
  lastName: text,
  fullName: text,
  /** Name of the campaign committee, used in the "Paid for by ..." disclaimer. */
  committeeName: text,
  office: text,
  city: text,
  state: text,
  stateCode: z.string().length(2),
  tagline: text,
});
export type Candidate = z.infer<typeof CandidateSchema>;

/** A calendar date written out the way it is shown, plus its ISO form for `<time>`. */
export const DisplayDateSchema = z.object({
  iso: z.iso.date(),
  label: text,
});

export const DateRangeSchema = z.object({
  start: DisplayDateSchema,
  end: DisplayDateSchema,
  /** e.g. "September 27 - October 4" */
  label: text,
});

export const ElectionFactsSchema = z.object({
  electionDay: DisplayDateSchema,
  earlyVoting: DateRangeSchema,
  qualifiedOn: DisplayDateSchema,
  candidateCount: z.number().int().positive(),
  yearsFinancialExperience: z.number().int().positive(),
});
export type ElectionFacts = z.infer<typeof ElectionFactsSchema>;

export const NavLinkSchema = z.object({
  label: text,
  href: z.string().startsWith('/'),
});
export type NavLink = z.infer<typeof NavLinkSchema>;

/** Names of the inline SVG icons in src/components/ui/Icon.astro. */
export const IconNameSchema = z.enum([
  'road',
  'shield',
  'eye',
  'people',
  'door',
  'phone',
  'message',
  'calendar',
  'laptop',
  'star',
  'mail',
  'map-pin',
  'clock',
  'mic',
  'handshake',
  'newspaper',
]);
export type IconName = z.infer<typeof IconNameSchema>;

/** Platform pillar on the home page (spec section 3). */
export const PillarSchema = z.object({
  title: text,
  description: text,
  icon: IconNameSchema,
});
export type Pillar = z.infer<typeof PillarSchema>;

export const PhaseStatusSchema = z.enum(['active', 'completed', 'upcoming', 'planned']);
export type PhaseStatus = z.infer<typeof PhaseStatusSchema>;

/** Campaign phase of the 90-day timeline (spec sections 3 and 4). */
export const CampaignPhaseSchema = z.object({
  title: text,
  period: text,
  description: text,
  /** The period as dates (inclusive): the status is derived from them (src/lib/election-stage.ts). */
  start: z.object({ iso: z.iso.date() }),
  end: z.object({ iso: z.iso.date() }),
});
export type CampaignPhase = z.infer<typeof CampaignPhaseSchema>;

/** Carousel video: thumbnails and embeds come from the video service by videoId. */
export const CarouselVideoSchema = z.object({
  videoId: z.string().regex(/^[\w-]{6,20}$/),
  title: text,
  badge: text,
});
export type CarouselVideo = z.infer<typeof CarouselVideoSchema>;

export const PlatformPrioritySchema = z.object({
  title: text,
  subtitle: text,
  bullets: z.array(text).min(1),
});
export type PlatformPriority = z.infer<typeof PlatformPrioritySchema>;

export const TitledTextSchema = z.object({
  title: text,
  description: text,
});
export type TitledText = z.infer<typeof TitledTextSchema>;

export const HelpAreaSchema = TitledTextSchema.extend({ icon: IconNameSchema });
export type HelpArea = z.infer<typeof HelpAreaSchema>;

export const WeeklyGoalSchema = z.object({
  target: z.number().int().positive(),
  label: text,
});
export type WeeklyGoal = z.infer<typeof WeeklyGoalSchema>;

export const ImpactSchema = z.object({
  /** e.g. "1 hour" */
  effort: text,
  activity: text,
  /** e.g. "20-30 voters" */
  result: text,
});
export type Impact = z.infer<typeof ImpactSchema>;

export const SpendingItemSchema = z.object({
  percent: z.number().int().min(0).max(100),
  label: text,
  description: text,
});
export type SpendingItem = z.infer<typeof SpendingItemSchema>;

export const ContributionRuleSchema = z.object({
  label: text,
  /** Whole dollars; absent for rules that are not an amount. */
  amount: z.number().int().positive().optional(),
  detail: text,
});
export type ContributionRule = z.infer<typeof ContributionRuleSchema>;

export const OfficeHoursSchema = z.object({ days: text, hours: text });
export type OfficeHours = z.infer<typeof OfficeHoursSchema>;

export const FaqSchema = z.object({
  /** Names an answer a page fills in itself ("election": in the tense of the page's moment). */
  id: z.literal('election').optional(),
  question: text,
  answer: text,
});
export type Faq = z.infer<typeof FaqSchema>;

/** A section of a legal document; paragraphs and list items are plain text. */
export const LegalSectionSchema = z.object({
  /** Fragment id for in-page links. */
  id: z.string().regex(/^[a-z0-9-]+$/),
  heading: text,
  paragraphs: z.array(text),
  list: z.array(text).optional(),
});
export type LegalSection = z.infer<typeof LegalSectionSchema>;

export const LegalDocumentSchema = z.object({
  title: text,
  lastUpdated: DisplayDateSchema,
  intro: text,
  sections: z.array(LegalSectionSchema).min(1),
});
export type LegalDocument = z.infer<typeof LegalDocumentSchema>;
