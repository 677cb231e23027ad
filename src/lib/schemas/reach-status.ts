import { z } from './zod.ts';

/**
 * Whether the campaign may still message a person on a list, as the Inbox, its filter and every CSV show it
 * (docs/decisions/155-inbox-and-staff-lists.md). Read from the ledger the senders read: an
 * email address's suppression (`suppressed/<sha256>`: email-guard.ts) and a number's opt-out (the text list's
 * `person/<sha256>`: text-list.ts).
 *
 * - `subscribed`: nothing stops a message;
 * - `unsubscribed`: the unsubscribe page, a mail client's one-click button, or SendGrid's unsubscribe event;
 * - `bounced`: SendGrid reported a bounce; `spam_reported`: the person marked an email as spam;
 * - `stopped`: the number replied STOP (or the carrier refused it as opted out, Twilio 21610).
 */
export const REACH_STATUSES = ['subscribed', 'unsubscribed', 'bounced', 'spam_reported', 'stopped'] as const;
export const ReachStatusSchema = z.enum(REACH_STATUSES);
export type ReachStatus = z.infer<typeof ReachStatusSchema>;

/** The words staff read, in the Inbox badge and filter (the CSV keeps the codes, for other tools). */
export const REACH_STATUS_LABELS: Record<ReachStatus, string> = {
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  spam_reported: 'Marked as spam',
  stopped: 'Opted out of texts',
};

/** The statuses a list's filter offers: the email lists', the text list's. */
export const EMAIL_REACH_STATUSES = [
  'subscribed',
  'unsubscribed',
  'bounced',
  'spam_reported',
] as const satisfies readonly ReachStatus[];
export const TEXT_REACH_STATUSES = ['subscribed', 'stopped'] as const satisfies readonly ReachStatus[];
