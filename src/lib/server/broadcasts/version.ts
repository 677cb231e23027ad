import { createHash } from 'node:crypto';
import type { StoredBroadcast } from '../../schemas/broadcasts.ts';

/**
 * A broadcast's version: one hash of everything that decides what its recipients get
 * (docs/decisions/152-broadcasts.md, "Approval is for one version"). The admin's view shows it,
 * send and schedule must name the one reviewed, the approval stores it and the audit entry names it.
 *
 * - the fields below as stored: the channel, the audience and its filters, the text (both bodies and the
 *   first-name fallback) or the email (subject, preview and HTML in both languages, the fallback);
 * - the prepared run's generation: a new preparation is a new recipient list, so it is a new version even
 *   when the words are the same.
 *
 * Not in it: the staff-only name, the status, who did what and when, the run's counts. A field added to
 * StoredBroadcastSchema must be put in one list or the other (tests/unit/broadcast-version.test.ts).
 */
export const VERSIONED_FIELDS = ['channel', 'audience', 'text', 'email'] as const;

/** The stored fields that are not what recipients get (the name is for staff only). */
export const UNVERSIONED_FIELDS = [
  'id',
  'name',
  'status',
  'scheduledAt',
  'createdBy',
  'createdAt',
  'updatedAt',
  'updatedBy',
  'approvedBy',
  'approvedAt',
  'approvedVersion',
  'run',
] as const;

type Versioned = Pick<StoredBroadcast, (typeof VERSIONED_FIELDS)[number]> & {
  run: Pick<StoredBroadcast['run'], 'gen'>;
};

/** Objects with their keys sorted (and undefined left out), so equal content gives the same JSON. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => [k, canonical(o[k])]),
  );
}

/** The version (SHA-256, 64 hex digits) of a broadcast's content and prepared run. */
export function broadcastVersion(b: Versioned): string {
  const content = Object.fromEntries(VERSIONED_FIELDS.map((f) => [f, b[f] ?? null]));
  return createHash('sha256')
    .update(JSON.stringify(canonical({ content, gen: b.run.gen })))
    .digest('hex');
}
