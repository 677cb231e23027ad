import { useEffect, useId, useState } from 'react';
import { DEFAULT_LANG, isLang, LANGS } from '../../lib/lang.ts';
import { LANG_NAMES_FOR_STAFF } from '../../lib/lang-names.ts';
import { contactSubjectLabels } from '../../content/contact.ts';
import {
  INBOX_KIND_NAMES,
  INBOX_KINDS,
  INBOX_PAGE_SIZE,
  inboxExportParams,
  useInbox,
  type InboxItem,
} from '../api/get-inbox.ts';
import type { InboxCellName, InboxKindName } from '../../lib/inbox-kinds.ts';
import { REACH_STATUS_LABELS, ReachStatusSchema, type ReachStatus } from '../../lib/schemas/reach-status.ts';
import { Badge } from '../components/Badge.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { SearchField, useDebounced } from '../components/SearchField.tsx';
import { Table } from '../components/Table.tsx';
import { formatDateTime } from '../forms/datetime.ts';
import { ExpandableText } from '../components/ExpandableText.tsx';
import { ExportButton } from '../components/ExportButton.tsx';
import { inboxOfHash, onHash } from '../links.ts';
import { formatEventDate } from '../../lib/campaign-time.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** The form's language (docs/decisions/166-spanish.md), so staff answer in it; records from before it read as English. */
function langCell(r: InboxItem): string {
  return LANG_NAMES_FOR_STAFF[isLang(r.lang) ? r.lang : DEFAULT_LANG];
}

interface Column {
  header: string;
  cell: (r: InboxItem) => React.ReactNode;
}

/**
 * Whether the campaign may still message the person, and since when: the server's `reachStatus` and `reachStatusAt`, read
 * from the ledger the senders read (docs/decisions/155-inbox-and-staff-lists.md).
 */
function statusCell(r: InboxItem) {
  const status = ReachStatusSchema.safeParse(r.reachStatus);
  if (!status.success) return null;
  return (
    <>
      <Badge variant={status.data === 'subscribed' ? 'success' : 'secondary'}>
        {REACH_STATUS_LABELS[status.data]}
      </Badge>
      {status.data !== 'subscribed' && r.reachStatusAt ? (
        <span className="cell-sub">{formatDateTime(str(r.reachStatusAt))}</span>
      ) : null}
    </>
  );
}

/** Text sign-ups: smsStatus subscribed | opted_out (src/lib/schemas/inbox.ts), with the consent time and version. */
function consentCell(r: InboxItem) {
  if (r.smsStatus === 'opted_out') {
    return (
      <>
        <Badge variant="secondary">{REACH_STATUS_LABELS.stopped}</Badge>
        {r.optedOutAt ? <span className="cell-sub">{formatDateTime(str(r.optedOutAt))}</span> : null}
      </>
    );
  }
  if (r.smsStatus === 'subscribed') {
    return (
      <>
        <Badge variant="success">Subscribed</Badge>
        {r.consentAt ? (
          <span className="cell-sub">
            Consented {formatDateTime(str(r.consentAt))}
            {r.consentVersion ? ` (text ${str(r.consentVersion)})` : ''}
          </span>
        ) : null}
      </>
    );
  }
  return <Badge variant="outline">Unknown</Badge>;
}

/**
 * Volunteer and contact forms never overwrite a stored person: every submission
 * is its own row, and the server counts those from the same email.
 */
function emailCell(r: InboxItem) {
  const n = typeof r.submissionsFromEmail === 'number' ? r.submissionsFromEmail : 1;
  return (
    <>
      {str(r.email)}
      {n > 1 ? (
        <span className="cell-sub">{n} submissions from this email (search it to see all)</span>
      ) : null}
    </>
  );
}

/** The table's cells by name: each kind's definition (src/lib/inbox-kinds.ts) lists its columns with these. */
const CELLS: Record<InboxCellName, Column['cell']> = {
  fullName: (r) => `${str(r.firstName)} ${str(r.lastName)}`.trim(),
  name: (r) => str(r.name),
  firstName: (r) => str(r.firstName),
  emailWithCount: emailCell,
  email: (r) => str(r.email),
  phone: (r) => str(r.phone),
  place: (r) => [str(r.city), `${str(r.state)} ${str(r.zip)}`.trim()].filter(Boolean).join(', '),
  interests: (r) => (Array.isArray(r.interests) ? r.interests.map(str).join(', ') : ''),
  subject: (r) => contactSubjectLabels[str(r.subject) as keyof typeof contactSubjectLabels] ?? str(r.subject),
  message: (r) => <ExpandableText text={str(r.message)} />,
  language: langCell,
  createdAt: (r) => formatDateTime(str(r.createdAt)),
  reachStatus: statusCell,
  smsConsent: consentCell,
  sourcePage: (r) => str(r.sourcePage),
  consentVersion: (r) => `Text ${str(r.consentVersion)}`,
  // Only confirmed addresses are listed (double opt-in); older ones were kept before it.
  confirmedAt: (r) => (r.confirmedAt ? formatDateTime(str(r.confirmedAt)) : 'Before double opt-in'),
};

/** A kind's table columns, from its definition. */
const columnsOf = (kind: InboxKindName): Column[] =>
  INBOX_KINDS[kind].table.map((c) => ({ header: c.header, cell: CELLS[c.cell] }));

/** Export all lists: no parameters (every list, unfiltered; docs/decisions/156-exports.md). */
const ALL_LISTS: Record<string, string> = {};

/** "1 volunteer sign-up", "12 volunteer sign-ups": a list's count with its label in the right number. */
export function countOf(n: number, label: string): string {
  const plural = label.toLowerCase();
  return `${n.toLocaleString('en-US')} ${n === 1 ? plural.replace(/s$/, '') : plural}`;
}

/** Volunteer sign-ups, contact messages, text sign-ups and newsletter subscribers (admin and editor): paged, filterable, exportable. */
export function InboxTab() {
  // A link from the Overview (`#inbox/<list>?from&to&status`: src/admin/links.ts) opens on its list and filters.
  const [linked] = useState(() => (typeof location === 'undefined' ? null : inboxOfHash(location.hash)));
  const [kind, setKind] = useState<InboxKindName>(linked?.list ?? 'volunteers');
  const [query, setQuery] = useState('');
  const [lang, setLang] = useState('');
  const [status, setStatus] = useState<string>(linked?.status ?? '');
  const [days, setDays] = useState<{ from?: string; to?: string }>({
    ...(linked?.from ? { from: linked.from } : {}),
    ...(linked?.to ? { to: linked.to } : {}),
  });
  useEffect(
    () =>
      onHash((hash) => {
        const link = inboxOfHash(hash);
        if (!link) return;
        setKind(link.list);
        setStatus(link.status ?? '');
        setDays({ ...(link.from ? { from: link.from } : {}), ...(link.to ? { to: link.to } : {}) });
      }),
    [],
  );
  const q = useDebounced(query, 300);
  const [page, setPage] = useState(1);
  const statuses: readonly ReachStatus[] = INBOX_KINDS[kind].statuses;
  // A status the list does not keep (after switching lists) filters nothing.
  const statusFilter = statuses.some((s) => s === status) ? status : '';
  const { data, error, isLoading } = useInbox(kind, page, q, lang, undefined, statusFilter, days);
  const items = data?.items ?? [];
  const kindId = useId();
  const langId = useId();
  const statusId = useId();
  useClampPage(page, setPage, data?.total, data?.pageSize ?? INBOX_PAGE_SIZE);
  useEffect(() => setPage(1), [kind, q, lang, statusFilter, days]);
  const columns = columnsOf(kind);
  const label = INBOX_KINDS[kind].label;

  return (
    <section aria-labelledby="inbox-heading">
      <div className="section-head">
        <div>
          <h2 id="inbox-heading">Inbox</h2>
          <p className="muted">{data ? countOf(data.total, label) : '\u00a0'}</p>
        </div>
        <div className="section-head__actions">
          <ExportButton
            source="inbox"
            params={inboxExportParams(kind, q, lang, statusFilter, days)}
            label={label.toLowerCase()}
          />
          <ExportButton
            source="inbox_all"
            params={ALL_LISTS}
            label="the Inbox: one CSV file per list"
            text="Export all lists"
          />
        </div>
      </div>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={kindId} className="field__label">
            Show
          </label>
          <select
            id={kindId}
            className="input"
            value={kind}
            onChange={(e) => setKind(e.target.value as InboxKindName)}
          >
            {INBOX_KIND_NAMES.map((k) => (
              <option key={k} value={k}>
                {INBOX_KINDS[k].label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={langId} className="field__label">
            Language
          </label>
          <select id={langId} className="input" value={lang} onChange={(e) => setLang(e.target.value)}>
            <option value="">Any language</option>
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {LANG_NAMES_FOR_STAFF[l]}
              </option>
            ))}
          </select>
        </div>
        {statuses.length ? (
          <div className="field">
            <label htmlFor={statusId} className="field__label">
              Status
            </label>
            <select
              id={statusId}
              className="input"
              value={statusFilter}
              onChange={(e) => setStatus(e.target.value)}
            >
              <option value="">Any status</option>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {REACH_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <SearchField value={query} onChange={setQuery} placeholder="Name, email, phone, city or ZIP" />
      </div>
      {days.from || days.to ? (
        <p className="muted">
          {`Signed up ${days.from ? `from ${formatEventDate(days.from)} ` : ''}${
            days.to ? `to ${formatEventDate(days.to)}` : ''
          }`.trim()}
          .{' '}
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => setDays({})}>
            Show every date
          </button>
        </p>
      ) : null}
      <ListState
        isLoading={isLoading}
        error={error}
        empty={items.length === 0}
        emptyText={
          q.trim() || lang || statusFilter || days.from || days.to
            ? 'No matches for this search and these filters.'
            : undefined
        }
      >
        <Table caption={label}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((r, i) => (
              <tr key={str(r.id) || i}>
                {columns.map((c) => (
                  <td key={c.header}>{c.cell(r)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
        <Pager
          label={label}
          page={page}
          pageSize={data?.pageSize ?? INBOX_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
    </section>
  );
}
