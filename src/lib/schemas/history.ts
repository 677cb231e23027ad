import { z } from './zod.ts';

import { HISTORY_KINDS, REVISION_ACTIONS, type RevisionAction } from './history-labels.ts';

export {
  HISTORY_KINDS,
  REVISION_ACTIONS,
  TRASH_DAYS,
  type HistoryKind,
  type RevisionAction,
} from './history-labels.ts';

/** Records with revisions and a Trash (docs/decisions/161-content-and-editor.md). */
export const HistoryKindSchema = z.enum(HISTORY_KINDS);

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
