import { z } from './zod.ts';

/** Records with revisions and a Trash (issue 11). */
export const HISTORY_KINDS = ['article', 'event'] as const;
export const HistoryKindSchema = z.enum(HISTORY_KINDS);
export type HistoryKind = z.infer<typeof HistoryKindSchema>;

/** Deleted articles and events can be restored from the Trash for this long. */
export const TRASH_DAYS = 30;

export const REVISION_ACTIONS = {
  baseline: 'Version before history was kept',
  create: 'Created',
  update: 'Saved',
  restore: 'Restored an earlier version',
  'trash-restore': 'Restored from Trash',
} as const;
export type RevisionAction = keyof typeof REVISION_ACTIONS;

/** One saved version of an article or event: who, when, what changed, and the whole record. */
export const RevisionSchema = z.object({
  /** 1 for the oldest kept version, then counting up. */
  n: z.number().int().positive(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  actorName: z.string(),
  action: z.enum(Object.keys(REVISION_ACTIONS) as [RevisionAction, ...RevisionAction[]]),
  /** The version a restore brought back. */
  restoredFrom: z.number().int().positive().nullable(),
  /** Field names that differ from the version before (empty for the first). */
  changed: z.array(z.string()),
  /** The whole record as saved (an Article or a CampaignEvent). */
  snapshot: z.record(z.string(), z.unknown()),
});
export type Revision = z.infer<typeof RevisionSchema>;
export type RevisionSummary = Omit<Revision, 'snapshot'>;

export const TrashEntrySchema = z.object({
  kind: HistoryKindSchema,
  id: z.number().int().positive(),
  title: z.string(),
  deletedAt: z.string(),
  deletedById: z.number().int().nullable(),
  deletedByName: z.string(),
  record: z.record(z.string(), z.unknown()),
});
export type TrashEntry = z.infer<typeof TrashEntrySchema>;
export type TrashSummary = Omit<TrashEntry, 'record'> & { expiresAt: string };
