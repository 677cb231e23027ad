import type { Lang } from '../lang.ts';
import type { BroadcastChannel, BroadcastStatus, Outcome, StoredBroadcast } from './broadcasts.ts';

/**
 * What the broadcast endpoints answer (docs/decisions/152-broadcasts.md), declared once for
 * the server (src/lib/server/broadcasts/staff.ts) and the dashboard. Types only: no zod.
 */

/** The staff actions on a broadcast, each a route of its own. */
export const BROADCAST_ACTIONS = ['prepare', 'send', 'schedule', 'pause', 'resume', 'cancel'] as const;
export type BroadcastActionName = (typeof BROADCAST_ACTIONS)[number];
/** What editors may do besides drafting and testing; the rest is admins' (`send_broadcasts`). */
export const EDITOR_ACTIONS: readonly BroadcastActionName[] = ['prepare'];

/** Send or schedule naming a version that is no longer the broadcast's (a 409). */
export const BROADCAST_CHANGED = 'This broadcast changed since you reviewed it: review it again';

/** One line of the list. */
export interface BroadcastListItem {
  id: number;
  name: string;
  channel: BroadcastChannel;
  status: BroadcastStatus;
  scheduledAt: string | null;
  updatedAt: string;
}

export interface BroadcastProgress {
  recipients: number;
  /** Recipients the job has decided (sent, failed or skipped). */
  processed: number;
  /** Not yet processed, and of those, waiting for a closed quiet-hours window. */
  queued: number;
  waiting: number;
  /**
   * While some are waiting: when the first of their windows opens (ISO) and the recipients' time zone there (an
   * IANA name), so the dashboard can say "sending resumes 9:00 AM Eastern (8:00 AM in New Orleans)".
   */
  resumes: { at: string; zone: string } | null;
  counts: Record<Outcome, number>;
  /** The providers' reports so far. */
  reported: { delivered: number; undelivered: number; bounced: number };
}

export type BroadcastPreview = { text: string } | { subject: string; preview: string; html: string };

export interface BroadcastView {
  broadcast: Omit<StoredBroadcast, 'run'> & {
    run: Omit<StoredBroadcast['run'], 'chunks' | 'resolver'> & { chunks: number };
  };
  progress: BroadcastProgress;
  estimate: { recipients: number; segments: number; spanish: number; pricePerSegment: number; cost: number };
  /** What a recipient without a first name gets, in each language. */
  preview: Record<Lang, BroadcastPreview>;
  /** The version of what is shown (content and prepared run): send and schedule name it. */
  version: string;
}

export type TestResult = { sent: true; to: string } | { sent: false; to: string; reason: string };
