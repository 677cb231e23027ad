import { useId, useState } from 'react';
import { messageOf } from '../../lib/client/api.ts';
import { formatCampaignDateTime } from '../../lib/campaign-time.ts';
import type { VotePlanRow } from '../../lib/schemas/vote-plan.ts';
import { useVotePlans } from '../api/get-vote-plans.ts';
import { ExportButton } from '../components/ExportButton.tsx';

/*
 * Plans to vote (admin and editor; docs/decisions/158-plan-to-vote.md): newest first, a page at a time, with the
 * reminders' state, and the round's CSV. Its own list and endpoint, apart from the Inbox's.
 */

const delivery = (d: VotePlanRow['eveSms']) => (d ? d.status : '—');
const reminders = (r: VotePlanRow) =>
  [
    r.smsConsent ? `text (eve ${delivery(r.eveSms)}, morning ${delivery(r.morningSms)})` : null,
    r.emailConsent ? `email (eve ${delivery(r.eveEmail)}, morning ${delivery(r.morningEmail)})` : null,
  ]
    .filter(Boolean)
    .join('; ') || 'none';

export function VotePlansTab() {
  const [round, setRound] = useState<'primary' | 'runoff'>('primary');
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useVotePlans(round, page);
  const roundId = useId();
  return (
    <section aria-labelledby="plans-heading">
      <div className="section-head">
        <div>
          <h2 id="plans-heading">Plans to vote</h2>
          <p className="muted">Page {page}</p>
        </div>
        <ExportButton source="vote_plans" params={{ round }} label="plans to vote" />
      </div>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={roundId} className="field__label">
            Election
          </label>
          <select
            id={roundId}
            className="input"
            value={round}
            onChange={(e) => {
              setRound(e.target.value === 'runoff' ? 'runoff' : 'primary');
              setPage(1);
            }}
          >
            <option value="primary">First election</option>
            <option value="runoff">Runoff</option>
          </select>
        </div>
      </div>
      {error ? (
        <p className="state state--error" role="alert">
          {messageOf(error, 'Could not load the plans to vote.')}
        </p>
      ) : null}
      {isLoading ? <p className="state">Loading…</p> : null}
      {data?.items.length === 0 ? <p className="state">No plans yet.</p> : null}
      {data && data.items.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Day</th>
                <th scope="col">How</th>
                <th scope="col">Contact</th>
                <th scope="col">Reminders</th>
                <th scope="col">Voted</th>
                <th scope="col">Planned</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((r) => (
                <tr key={`${r.round}-${r.id}`}>
                  <td>{r.name}</td>
                  <td>{r.day}</td>
                  <td>{r.method === 'mail' ? 'By mail' : 'In person'}</td>
                  <td>{[r.phone, r.email].filter(Boolean).join(', ')}</td>
                  <td>{r.stoppedAt ? 'stopped' : reminders(r)}</td>
                  <td>{r.votedAt ? formatCampaignDateTime(r.votedAt) : ''}</td>
                  <td>{formatCampaignDateTime(r.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div className="pager">
        <button
          type="button"
          className="btn btn--secondary"
          disabled={page <= 1}
          onClick={() => setPage(page - 1)}
        >
          Previous
        </button>
        <button
          type="button"
          className="btn btn--secondary"
          disabled={!data?.more}
          onClick={() => setPage(page + 1)}
        >
          Next
        </button>
      </div>
    </section>
  );
}
