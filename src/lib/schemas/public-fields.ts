/*
 * Imports nothing (not even the record types): every schema module builds its Public*Schema from these lists, and
 * the projections in public-projections.ts check each list against its record type, so no import cycle.
 */

/**
 * What anyone may see of each stored record, declared once as field lists,
 * free of zod: the public read functions project with `pick` (they must not
 * load the schema library, docs/decisions/162-public-pages-and-performance.md), and
 * the Public*Schema in each schema module is built from the same list
 * (`Schema.pick(fieldMask(...))`), so the two cannot disagree; public-projections.ts checks that each list
 * names only fields its record has
 * (tests/unit/public-fields.test.ts compares them on random records). A field
 * reaches a public answer only by being listed here.
 */
export const PUBLIC_FIELDS = {
  /** Internal: when the draft was created. */
  article: [
    'id',
    'title',
    'content',
    'excerpt',
    'imageUrl',
    'author',
    'category',
    'slug',
    'isPublished',
    'publishedAt',
    'updatedAt',
  ],
  /**
   * Internal: the staff's notes, the contact email (often a staffer's own
   * address; no public page shows it) and when the record was created.
   */
  event: [
    'id',
    'title',
    'description',
    'location',
    'eventDate',
    'startTime',
    'endTime',
    'eventType',
    'isPublic',
    'maxAttendees',
    'registrationRequired',
    'registrationUrl',
    'updatedAt',
  ],
  /** What the footer needs. Internal: isActive, displayOrder, who edited the link last and when. */
  socialLink: ['id', 'platform', 'url', 'handle'],
  /** Progress figures: everything displayed; internal is when staff last edited each record. */
  metric: ['id', 'currentValue', 'targetValue', 'label', 'sublabel', 'description', 'trend', 'isPublic'],
  goal: ['id', 'currentCount', 'targetCount', 'deadline', 'description', 'priority'],
  milestone: ['id', 'currentCount', 'targetCount', 'label', 'description', 'isPublic'],
} as const;

/** A zod `pick` mask for a field list: `{ id: true, ... }`. */
export function fieldMask<K extends string>(keys: readonly K[]): Record<K, true> {
  return Object.fromEntries(keys.map((k) => [k, true])) as Record<K, true>;
}

/** The listed fields of `record`, and nothing else (a missing one stays missing). */
export function pick<T extends object, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (k in record) out[k] = record[k];
  return out;
}
