import { useState } from 'react';
import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import { TRASH_DAYS } from '../../lib/schemas/history-labels.ts';
import { TRASH_PAGE_SIZE, useRestoreFromTrash, useTrash } from '../api/trash.ts';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { RowButton } from '../components/RowButton.tsx';
import { Table } from '../components/Table.tsx';
import { formatDateTime } from '../forms/datetime.ts';

/** Deleted articles and events (docs/decisions/161-content-and-editor.md; editors and admins), restorable for 30 days. */
export function TrashTab() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useTrash(page);
  useClampPage(page, setPage, data?.total, TRASH_PAGE_SIZE);
  const restore = useRestoreFromTrash();
  const [busy, setBusy] = useState<string | null>(null);
  const items = data?.items ?? [];

  async function onRestore(kind: 'article' | 'event', id: number, title: string) {
    setBusy(`${kind}-${id}`);
    try {
      await restore(kind, id);
      toast.success(`${kind === 'article' ? 'Article' : 'Event'} restored`, { description: title });
    } catch (err) {
      toast.error('Failed to restore', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="trash-heading">
      <div className="section-head">
        <div>
          <h2 id="trash-heading">Trash</h2>
          <p className="muted">Deleted articles and events can be restored for {TRASH_DAYS} days.</p>
        </div>
      </div>
      <ListState isLoading={isLoading} error={error} empty={items.length === 0}>
        <Table caption="Deleted articles and events" captionHidden>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Type</th>
              <th scope="col">Deleted</th>
              <th scope="col">By</th>
              <th scope="col">Restorable until</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {items.map((t) => (
              <tr key={`${t.kind}-${t.id}`}>
                <th scope="row">{t.title}</th>
                <td>{t.kind === 'article' ? 'Article' : 'Event'}</td>
                <td>{formatDateTime(t.deletedAt)}</td>
                <td>{t.deletedByName}</td>
                <td>{formatDateTime(t.expiresAt)}</td>
                <td>
                  <RowButton
                    action="Restore"
                    name={t.title}
                    disabled={busy === `${t.kind}-${t.id}`}
                    onClick={() => void onRestore(t.kind, t.id, t.title)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
        <Pager
          label="Trash"
          page={page}
          pageSize={TRASH_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
    </section>
  );
}
