import { useState } from 'react';
import { AUDIT_KIND_LABELS, AUDIT_KINDS, type AuditKind } from '../../lib/schemas/audit-kinds.ts';
import {
  ACTIVITY_PAGE_SIZE,
  activityExportParams,
  useActivity,
  type ActivityFilters,
} from '../api/activity.ts';
import { useUsers } from '../api/get-users.ts';
import { ExportButton } from '../components/ExportButton.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { Table } from '../components/Table.tsx';
import { formatDateTime } from '../forms/datetime.ts';
import { ActivityIntegrity } from './ActivityIntegrity.tsx';

/**
 * The audit trail (docs/decisions/154-audit-trail.md, admin only): every staff action newest first,
 * filtered by person, kind and date range, paged by the server, exported as
 * CSV, with its integrity checks (ActivityIntegrity). Read only: nothing here (or anywhere) edits an entry.
 */
export function ActivityTab() {
  const [filters, setFilters] = useState<ActivityFilters>({});
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useActivity(filters, page);
  const people = useUsers(1, 200).data?.users ?? [];
  useClampPage(page, setPage, data?.total, data?.pageSize ?? ACTIVITY_PAGE_SIZE);

  const change = (next: ActivityFilters) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };

  return (
    <section aria-labelledby="activity-heading">
      <div className="section-head">
        <div>
          <h2 id="activity-heading">Activity</h2>
          <p className="muted">{data ? `${data.total} action${data.total === 1 ? '' : 's'}` : '\u00a0'}</p>
        </div>
        <div className="row-actions">
          <ExportButton source="activity" params={activityExportParams(filters)} label="the activity shown" />
        </div>
      </div>
      <ActivityIntegrity />
      <form className="filters" aria-label="Filter activity" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="activity-person" className="field__label">
            Person
          </label>
          <select
            id="activity-person"
            className="input"
            value={filters.actor ?? ''}
            onChange={(e) => change({ actor: e.target.value ? Number(e.target.value) : undefined })}
          >
            <option value="">Everyone</option>
            {people.map((u) => (
              <option key={u.id} value={u.id}>
                {u.username}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-kind" className="field__label">
            Action
          </label>
          <select
            id="activity-kind"
            className="input"
            value={filters.kind ?? ''}
            onChange={(e) => change({ kind: (e.target.value || undefined) as AuditKind | undefined })}
          >
            <option value="">All actions</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {AUDIT_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="activity-from" className="field__label">
            From (UTC)
          </label>
          <input
            id="activity-from"
            className="input"
            type="date"
            value={filters.from ?? ''}
            onChange={(e) => change({ from: e.target.value || undefined })}
          />
        </div>
        <div className="field">
          <label htmlFor="activity-to" className="field__label">
            To (UTC)
          </label>
          <input
            id="activity-to"
            className="input"
            type="date"
            value={filters.to ?? ''}
            onChange={(e) => change({ to: e.target.value || undefined })}
          />
        </div>
      </form>
      {data?.problems.length ? (
        // Entries that fail their own check are never shown, only named (docs/decisions/154-audit-trail.md).
        <p className="alert alert--error" role="alert">
          {data.problems.length === 1 ? 'One entry' : `${data.problems.length} entries`} on this page failed
          the integrity check and {data.problems.length === 1 ? 'is' : 'are'} not shown (
          {data.problems.map((p) => `#${p.seq} ${p.reason}`).join(', ')}). Run “Check integrity”.
        </p>
      ) : null}
      <ListState isLoading={isLoading} error={error} empty={(data?.entries.length ?? 0) === 0}>
        <Table caption="Staff actions, newest first" captionHidden>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Person</th>
              <th scope="col">Action</th>
              <th scope="col">About</th>
              <th scope="col">Details</th>
              <th scope="col">IP</th>
            </tr>
          </thead>
          <tbody>
            {(data?.entries ?? []).map((e) => (
              <tr key={e.seq}>
                <td>
                  <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                </td>
                <th scope="row">{e.actorName || '—'}</th>
                <td>{AUDIT_KIND_LABELS[e.kind]}</td>
                <td>{e.target ? `${e.target.type}: ${e.target.label}` : ''}</td>
                <td>
                  {Object.entries(e.details)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join('; ')}
                </td>
                <td>{e.ip}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        <Pager
          label="Activity"
          page={page}
          pageSize={data?.pageSize ?? ACTIVITY_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
    </section>
  );
}
