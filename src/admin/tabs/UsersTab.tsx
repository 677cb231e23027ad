import { useState } from 'react';
import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import type { PublicUser } from '../../lib/schemas/user.ts';
import { USERS_PAGE_SIZE, useUsers } from '../api/get-users.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { Badge, RoleBadge } from '../components/Badge.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { RowButton } from '../components/RowButton.tsx';
import { Table } from '../components/Table.tsx';
import { UserModal } from '../modals/UserModal.tsx';
import { useResetMemberTwoFactor, useTwoFactorAdmin } from '../api/two-factor.ts';
import { newUserForm, userForm, type UserForm } from '../forms/user-form.ts';
import { formatDate, formatDateTime } from '../forms/datetime.ts';

export const DELETE_USER_CONFIRM = 'Are you sure you want to delete this user? This action cannot be undone.';

export function UsersTab({ currentUserId }: { currentUserId: number }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useUsers(page);
  const [editing, setEditing] = useState<UserForm | null>(null);
  const [confirming, setConfirming] = useState<PublicUser | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = useDeleteUser();
  const enrolled = new Set(useTwoFactorAdmin().data?.enrolled ?? []);
  const resetTwoFactor = useResetMemberTwoFactor();
  const [resetting, setResetting] = useState<PublicUser | null>(null);

  async function onConfirmReset() {
    if (!resetting) return;
    setBusy(true);
    try {
      await resetTwoFactor(resetting.id);
      toast.success('Two-factor sign-in reset', {
        description: `${resetting.username} was signed out and can set it up again.`,
      });
    } catch (err) {
      toast.error('Failed to reset two-factor sign-in', { description: messageOf(err, 'Please try again.') });
    } finally {
      setResetting(null);
      setBusy(false);
    }
  }
  const users = data?.users ?? [];
  useClampPage(page, setPage, data?.total, data?.pageSize ?? USERS_PAGE_SIZE);

  async function onConfirmDelete() {
    if (!confirming) return;
    setBusy(true);
    try {
      await remove(confirming.id);
      toast.success('User deleted successfully!');
      setConfirming(null);
    } catch (err) {
      toast.error('Failed to delete user', {
        description: messageOf(err, 'An error occurred while deleting the user'),
      });
      setConfirming(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="users-heading">
      <div className="section-head">
        <div>
          <h2 id="users-heading">User Management</h2>
          <p className="muted">{data ? `${data.total} user${data.total === 1 ? '' : 's'}` : '\u00a0'}</p>
        </div>
        <button type="button" className="btn btn--primary" onClick={() => setEditing(newUserForm())}>
          Add User
        </button>
      </div>
      <ListState isLoading={isLoading} error={error} empty={users.length === 0}>
        <Table caption="Staff accounts" captionHidden>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Last Login</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => {
              const name = [u.firstName, u.lastName].filter(Boolean).join(' ');
              return (
                <tr key={u.id}>
                  <th scope="row">
                    <span className="cell-strong">{name || u.username}</span>
                    {name ? <span className="cell-sub">@{u.username}</span> : null}
                  </th>
                  <td>{u.email}</td>
                  <td>
                    <RoleBadge role={u.role} />
                  </td>
                  <td>
                    <Badge variant={u.isActive ? 'success' : 'secondary'}>
                      {u.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                    {/* Within Status, so the table keeps the spec's columns. */}
                    {enrolled.has(u.id) ? <Badge variant="outline">Two-factor on</Badge> : null}
                  </td>
                  <td>{u.lastLogin ? formatDateTime(u.lastLogin) : 'Never'}</td>
                  <td>{formatDate(u.createdAt)}</td>
                  <td>
                    <div className="row-actions">
                      <RowButton action="Edit" name={u.username} onClick={() => setEditing(userForm(u))} />
                      <RowButton
                        action="Delete"
                        name={u.username}
                        disabled={u.id === currentUserId}
                        title={u.id === currentUserId ? 'You cannot delete your own account' : undefined}
                        onClick={() => setConfirming(u)}
                      />
                      {enrolled.has(u.id) ? (
                        <RowButton
                          action="Reset two-factor"
                          name={u.username}
                          onClick={() => setResetting(u)}
                        />
                      ) : null}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
        <Pager
          label="Users"
          page={page}
          pageSize={data?.pageSize ?? USERS_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
      {editing ? <UserModal key={editing.id} initial={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={confirming !== null}
        title="Delete user"
        message={DELETE_USER_CONFIRM}
        confirmLabel="Delete"
        busy={busy}
        onConfirm={() => void onConfirmDelete()}
        onCancel={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={resetting !== null}
        title="Reset two-factor sign-in"
        message={`Reset ${resetting?.username ?? 'this member'}'s second factor? They are signed out and sign in with their password alone until they set it up again (or are sent to set-up if your policy requires it).`}
        confirmLabel="Reset"
        busy={busy}
        onConfirm={() => void onConfirmReset()}
        onCancel={() => setResetting(null)}
      />
    </section>
  );
}
