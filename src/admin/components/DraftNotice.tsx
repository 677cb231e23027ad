import { useState } from 'react';
import type { Draft } from '../forms/use-draft.ts';
import { formatDateTime } from '../forms/datetime.ts';

/**
 * At the top of a form that opened with unsaved work from earlier in this tab: restore it, or discard it.
 * docs/decisions/169-dashboard-ui.md.
 */
export function DraftNotice<T>({
  draft,
  onRestore,
  onDiscard,
}: {
  draft: Draft<T> | null;
  onRestore: (values: T) => void;
  onDiscard: () => void;
}) {
  const [answered, setAnswered] = useState(false);
  if (!draft || answered) return null;
  return (
    <div className="alert alert--warning span-2 stack" role="status" data-draft-notice>
      <p>You have unsaved changes to this form from {formatDateTime(draft.savedAt)}.</p>
      <div className="row-actions">
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            onRestore(draft.values);
            setAnswered(true);
          }}
        >
          Restore my changes
        </button>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => {
            onDiscard();
            setAnswered(true);
          }}
        >
          Discard them
        </button>
      </div>
    </div>
  );
}
