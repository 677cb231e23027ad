/**
 * The zod-free facts of broadcasts, for the dashboard as well as the server
 * (docs/decisions/161-content-and-editor.md: dashboard code imports no zod).
 */

/** Who a broadcast can go to (src/lib/server/broadcasts/audiences.ts; `plan_to_vote` takes texts only). */
export const AUDIENCE_KINDS = [
  'text_subscribers',
  'newsletter_subscribers',
  'volunteers',
  'event_attendees',
  'plan_to_vote',
  'people',
] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

export const AUDIENCE_LABELS: Record<AudienceKind, string> = {
  text_subscribers: 'Text subscribers',
  newsletter_subscribers: 'Newsletter subscribers',
  volunteers: 'Volunteers',
  event_attendees: 'An event’s attendees',
  plan_to_vote: 'Voters with a plan to vote',
  people: 'People (filtered)',
};

export const ATTENDEE_STATUSES = ['going', 'waitlisted', 'checked_in'] as const;

/** An email body's cap: an article's. */
export const ARTICLE_HTML_MAX = 100_000;

/**
 * What happened to each recipient. `sent` may later become `delivered` or
 * `undelivered` (the provider's report); the skips say why nothing was sent.
 */
export const OUTCOMES = [
  'sent',
  'failed',
  'skipped_opted_out',
  'skipped_no_consent',
  'skipped_invalid',
  'skipped_duplicate',
  'skipped_limit',
  'skipped_cancelled',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const OUTCOME_LABELS: Record<Outcome, string> = {
  sent: 'Sent',
  failed: 'Failed',
  skipped_opted_out: 'Skipped: opted out or unsubscribed',
  skipped_no_consent: 'Skipped: no consent on record',
  skipped_invalid: 'Skipped: invalid number or address',
  skipped_duplicate: 'Skipped: duplicate',
  skipped_limit: 'Skipped: texts to this number today used up',
  skipped_cancelled: 'Not sent: broadcast cancelled',
};

/** Messages a minute (texts: segments a minute) the engine keeps under: see docs/deploy.md. */
export const DEFAULT_BROADCAST_RATE = 3000;
