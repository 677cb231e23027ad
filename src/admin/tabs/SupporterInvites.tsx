import { useState } from 'react';
import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import { personHash } from '../api/people.ts';
import { usePersonInvite, useRecruits } from '../api/supporter-invites.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ListState } from '../components/ListState.tsx';
import { Table } from '../components/Table.tsx';
import { formatDateTime } from '../forms/datetime.ts';

/*
 * Supporters' invite links in the People tab (docs/decisions/182-supporter-page.md): on a person's page, their
 * link's code and sign-ups with "Turn off invite link" (editors, admins); under the list, the recruits leaderboard
 * (every role) and whether supporters see its counts on their own page (admins).
 */

export function PersonInvite({ id, canEdit }: { id: string; canEdit: boolean }) {
  const { data, error, isLoading, revoke } = usePersonInvite(id);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const inv = data?.invite ?? null;
  async function onRevoke() {
    setBusy(true);
    try {
      await revoke();
      toast.success('Invite link turned off', {
        description: 'It credits nobody from now on; the supporter gets a new one on their page.',
      });
      setConfirm(false);
    } catch (err) {
      toast.error('Could not turn off the invite link', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <h3>Invite link</h3>
      <ListState isLoading={isLoading} error={error} empty={false}>
        {data ? (
          <>
            <p>
              {inv ? (
                <>
                  Code <code>{inv.code}</code>
                  {inv.revokedAt
                    ? ` (turned off ${formatDateTime(inv.revokedAt)}, by ${inv.revokedBy ?? ''})`
                    : ''}
                </>
              ) : (
                'No invite link yet.'
              )}{' '}
              Sign-ups credited: {data.counts.total - (data.counts.donation ?? 0)}. Donors through the link:{' '}
              {data.counts.donation ?? 0}.
            </p>
            {canEdit && inv && !inv.revokedAt ? (
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                disabled={busy}
                onClick={() => setConfirm(true)}
              >
                Turn off invite link
              </button>
            ) : null}
          </>
        ) : null}
      </ListState>
      <ConfirmDialog
        open={confirm}
        title="Turn off this invite link?"
        message="Sign-ups through this link will no longer be credited to this person. Their page will show them a new link."
        confirmLabel="Turn off invite link"
        busy={busy}
        onConfirm={() => void onRevoke()}
        onCancel={() => setConfirm(false)}
      />
    </>
  );
}

export function RecruitsBoard({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, isLoading, setShowOnMy } = useRecruits();
  const [busy, setBusy] = useState(false);
  async function onToggle(show: boolean) {
    setBusy(true);
    try {
      await setShowOnMy(show);
      toast.success(show ? 'Supporters now see the top counts' : 'Supporters no longer see the top counts');
    } catch (err) {
      toast.error('Could not change the setting', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="recruits-heading">
      <h3 id="recruits-heading">Recruits leaderboard</h3>
      <p className="muted">Sign-ups credited to each supporter&apos;s invite link.</p>
      <ListState
        isLoading={isLoading}
        error={error}
        empty={!data?.leaders.length}
        emptyText="No sign-ups through invite links yet."
      >
        <Table caption="Recruits leaderboard" captionHidden>
          <thead>
            <tr>
              <th scope="col">Place</th>
              <th scope="col">Supporter</th>
              <th scope="col">Sign-ups</th>
            </tr>
          </thead>
          <tbody>
            {(data?.leaders ?? []).map((l, i) => (
              <tr key={l.personId}>
                <td>{i + 1}</td>
                <td>
                  <a href={personHash(l.personId)}>{l.name || l.personId.slice(0, 8)}</a>
                </td>
                <td>{l.count}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </ListState>
      {isAdmin && data ? (
        <label className="field--check">
          <input
            type="checkbox"
            checked={data.settings.showOnMy}
            disabled={busy}
            onChange={(e) => void onToggle(e.currentTarget.checked)}
          />{' '}
          Show the top counts (no names) to supporters on their own page
        </label>
      ) : null}
    </section>
  );
}
