/**
 * Revisions and Trash (docs/decisions/161-content-and-editor.md): the constants the dashboard shows. zod-free,
 * so the dashboard does not pull schema code into the zod chunk public pages share.
 */
export const HISTORY_KINDS = ['article', 'event'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

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
