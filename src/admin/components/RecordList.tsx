import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { failureDescription } from '../forms/errors.ts';
import { ListState } from './ListState.tsx';
import { Pager } from './Pager.tsx';
import { RowButton } from './RowButton.tsx';

interface Titled {
  id: number;
  title: string;
}

export interface RecordListProps<T extends Titled> {
  /** Prefix of the heading's id: `${name}-heading`. */
  name: string;
  heading: string;
  /** Singular noun for the count line ("3 articles"). */
  noun: string;
  /** Accessible name of the list and of its pager. */
  label: string;
  addLabel: string;
  canEdit: boolean;
  /** The current page's records and the total; undefined until the first answer. */
  data: { records: readonly T[]; total: number } | undefined;
  error: unknown;
  isLoading: boolean;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** Everything in the record's card except the Edit and Delete buttons. */
  renderRecord: (record: T) => ReactNode;
  onAdd: () => void;
  onEdit: (record: T) => void;
  /** Deletes without a confirmation; `deleted` and `deleteFailed` are the toasts. */
  remove: (id: number) => Promise<unknown>;
  deleted: string;
  deleteFailed: string;
  /**
   * Brings a deleted record back from the Trash: the delete toast then offers Undo (deletes stay one
   * click, as the spec says; docs/decisions/161-content-and-editor.md).
   */
  undo?: (id: number) => Promise<unknown>;
  /** The toast after an Undo, e.g. "Article restored". */
  undone?: string;
  /** More buttons before Edit (shown to everyone who can see the list), e.g. History. */
  extraActions?: (record: T) => ReactNode;
  /** The add/edit modal, if open. */
  children?: ReactNode;
}

/** A paged list of titled records (articles, events) with Add, and Edit and Delete on each record. */
export function RecordList<T extends Titled>({
  name,
  heading,
  noun,
  label,
  addLabel,
  canEdit,
  data,
  error,
  isLoading,
  page,
  pageSize,
  onPage,
  renderRecord,
  onAdd,
  onEdit,
  remove,
  deleted,
  deleteFailed,
  undo,
  undone = 'Restored',
  extraActions,
  children,
}: RecordListProps<T>) {
  const [deleting, setDeleting] = useState<number | null>(null);
  const records = data?.records ?? [];

  async function onUndo(r: T) {
    if (!undo) return;
    try {
      await undo(r.id);
      toast.success(undone, { description: r.title });
    } catch (err) {
      toast.error('Failed to restore', { description: failureDescription(err, 'Please try again.') });
    }
  }

  async function onDelete(r: T) {
    setDeleting(r.id);
    try {
      await remove(r.id);
      toast.success(
        deleted,
        undo
          ? {
              description: `${r.title}: kept in the Trash.`,
              action: { label: 'Undo', onClick: () => void onUndo(r) },
            }
          : undefined,
      );
    } catch (err) {
      toast.error(deleteFailed, { description: failureDescription(err, 'Please try again.') });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section aria-labelledby={`${name}-heading`}>
      <div className="section-head">
        <div>
          <h2 id={`${name}-heading`}>{heading}</h2>
          <p className="muted">{data ? `${data.total} ${noun}${data.total === 1 ? '' : 's'}` : '\u00a0'}</p>
        </div>
        {canEdit ? (
          <button type="button" className="btn btn--primary" onClick={onAdd}>
            {addLabel}
          </button>
        ) : null}
      </div>
      <ListState isLoading={isLoading} error={error} empty={records.length === 0}>
        <ul className="records" aria-label={label}>
          {records.map((r) => (
            <li key={r.id} className="record">
              <div className="record__main">{renderRecord(r)}</div>
              {canEdit || extraActions ? (
                <div className="record__actions">
                  {extraActions?.(r)}
                  {canEdit ? (
                    <>
                      <RowButton action="Edit" name={r.title} onClick={() => onEdit(r)} />
                      <RowButton
                        action="Delete"
                        name={r.title}
                        disabled={deleting === r.id}
                        onClick={() => void onDelete(r)}
                      />
                    </>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        <Pager label={label} page={page} pageSize={pageSize} total={data?.total ?? 0} onPage={onPage} />
      </ListState>
      {children}
    </section>
  );
}
