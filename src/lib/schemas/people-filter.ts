import { LANGS } from '../lang.ts';
import { z } from './zod.ts';

/**
 * The People filters' shape (docs/decisions/149-people.md, "Tags, notes and filters"): one definition for the
 * People list, its CSV export, broadcast audiences (AudienceSchema) and the People tab. The tests themselves are in
 * src/lib/server/people/filters.ts.
 */

/** Where a person's timeline entries come from: each form, a consent change, a donation. */
export const PERSON_SOURCES = [
  'text_signup',
  'newsletter',
  'volunteer',
  'contact',
  'rsvp',
  'shift',
  'vote_plan',
  'donation',
  'consent',
] as const;

/** A tag: 1-40 lowercase letters, digits, '-' or '_' (no spaces: the summary keeps tags space-separated). */
export const TagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N}_-]{0,39}$/u, 'A tag is 1 to 40 letters, digits, - or _');

/**
 * "has / has not": volunteered, RSVP'd (to any event, or to event N), attended (any, or N), made a plan, donated,
 * signed up for a shift (docs/decisions/181-shifts.md: "volunteers not yet on a shift" is has volunteered, has not shift).
 */
export const HAS = /^(volunteered|rsvp|attended|plan|donated|shift)(?::([1-9]\d{0,15}))?$/;
const HasSchema = z
  .string()
  .regex(HAS, 'has/hasNot: volunteered, rsvp[:event], attended[:event], plan, donated or shift');
export const CONSENT_FILTERS = ['granted', 'revoked', 'none'] as const;

export const PeopleFilterSchema = z.strictObject({
  q: z.string().max(200, 'Search is too long (at most 200 characters)').optional(),
  source: z.enum(PERSON_SOURCES).optional(),
  tag: TagSchema.optional(),
  lang: z.enum(LANGS).optional(),
  zip: z
    .string()
    .regex(/^\d{5}$/, 'zip is 5 digits')
    .optional(),
  email: z.enum(CONSENT_FILTERS).optional(),
  text: z.enum(CONSENT_FILTERS).optional(),
  has: z.array(HasSchema).max(6).optional(),
  hasNot: z.array(HasSchema).max(6).optional(),
});
export type PeopleFilter = z.infer<typeof PeopleFilterSchema>;
