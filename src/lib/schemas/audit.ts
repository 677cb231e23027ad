import { z } from './zod.ts';

import { AUDIT_KINDS } from './audit-kinds.ts';
import { PageQuerySchema, type Page } from './paging.ts';

export { AUDIT_KIND_LABELS, AUDIT_KINDS, type AuditKind } from './audit-kinds.ts';

export const AuditKindSchema = z.enum(AUDIT_KINDS);

/** One recorded action. Entries are immutable once written. */
export const AuditEntrySchema = z.object({
  /** Position in the hash chain, from 1, without gaps. */
  seq: z.number().int().positive(),
  /** ISO 8601 UTC. */
  at: z.string(),
  kind: AuditKindSchema,
  /** Who acted; null when nobody was signed in (a failed sign-in). */
  actorId: z.number().int().nullable(),
  /** The actor's username at the time (kept after the account is deleted), or the name typed at a failed sign-in. */
  actorName: z.string(),
  /** What the action was about, e.g. { type: 'article', id: 3, label: 'Town hall recap' }. */
  target: z
    .object({ type: z.string(), id: z.union([z.number(), z.string()]).nullable(), label: z.string() })
    .nullable(),
  /** Extra facts (role before/after, changed fields, exported list). Strings only. */
  details: z.record(z.string(), z.string()),
  /** The platform's client IP. */
  ip: z.string(),
  /** Hash chain: HMAC of the previous entry's hash and this entry (see docs/decisions/154-audit-trail.md, 073-audit-anchors.md). */
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'Dates must be YYYY-MM-DD');

/** GET /api/admin/activity query. Dates are whole UTC days, both ends included. */
export const AuditQuerySchema = z.strictObject({
  actor: z.coerce.number().int().positive().optional(),
  kind: AuditKindSchema.optional(),
  from: day.optional(),
  to: day.optional(),
  ...PageQuerySchema.shape,
  format: z.enum(['json', 'csv']).default('json'),
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

/**
 * An entry listed on a page that failed its own check (its HMAC, or its index
 * key): reported by position only, never shown with its possibly forged content
 * (docs/decisions/154-audit-trail.md).
 */
export interface AuditProblem {
  seq: number;
  reason: 'missing' | 'unreadable' | 'altered';
}

/** The Activity tab's page of entries. */
export type AuditPage = Page<'entries', AuditEntry> & { problems: AuditProblem[] };

/**
 * What an integrity check found (docs/decisions/154-audit-trail.md): all entries hold, or the first
 * position where the record does not, and why.
 */
export interface AuditChainReport {
  ok: boolean;
  entries: number;
  brokenAt?: number;
  reason?: string;
  /**
   * When anchoring began after entry 1 (a store from before anchors, or restarted over a head that could not
   * be trusted; that entry says so): entries removed from the end before this position cannot be ruled out.
   */
  anchoredFrom?: number;
}

/**
 * One step of the incremental check (docs/decisions/154-audit-trail.md): `entries` have been verified
 * (the checkpoint), `pending` newer ones are left for the next step.
 */
export interface AuditCheckStep extends AuditChainReport {
  pending: number;
}

/** The full verification, a background job: where it is, and what it found when done. */
export interface AuditVerifyStatus {
  /** `stalled`: running, but not moved for a while (its run stopped); the next run takes it over. */
  state: 'none' | 'running' | 'stalled' | 'done';
  startedAt?: string;
  startedBy?: string;
  updatedAt?: string;
  finishedAt?: string;
  phase?: 'chain' | 'anchors' | 'listing' | 'index' | 'done';
  /** Entries walked so far, of `total` (the head when it started). */
  checked?: number;
  total?: number;
  result?: AuditChainReport;
}
