import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import { isLang } from '../../lib/lang.ts';
import { LANG_NAMES_FOR_STAFF } from '../../lib/lang-names.ts';
import {
  NO_PEOPLE_FILTER,
  PEOPLE_PAGE_SIZE,
  consentLabel,
  personHash,
  personIdOfHash,
  queueReason,
  sourceLabel,
  useMergeQueue,
  usePeople,
  usePeopleActions,
  usePerson,
  type ForgetReport,
  type PeopleListFilter,
  type PersonRow,
  type PersonView,
  type QueueEntry,
  type TimelineItem,
} from '../api/people.ts';
import { Badge } from '../components/Badge.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { SearchField, useDebounced } from '../components/SearchField.tsx';
import { Table } from '../components/Table.tsx';
import { formatDateTime } from '../forms/datetime.ts';
import { ShiftAttendanceLine } from './ShiftAttendance.tsx';
import { PeopleFilters } from './PeopleFilters.tsx';
import { PersonInvite, RecruitsBoard } from './SupporterInvites.tsx';

/**
 * People (docs/decisions/149-people.md): one row per person across every form, searched and filtered by the server,
 * and a person's page at `#people/<id>` (a link, so a reload or a shared link opens it): their timeline, consent per
 * channel, a stop staff record, the merge queue with merge and undo (editors, admins) and "forget me" (admins).
 * Viewers see names, places and states, never an email or a phone.
 */
export function PeopleTab({ canEdit, isAdmin }: { canEdit: boolean; isAdmin: boolean }) {
  const [personId, setPersonId] = useState(() =>
    typeof location === 'undefined' ? null : personIdOfHash(location.hash),
  );
  useEffect(() => {
    const onHash = () => setPersonId(personIdOfHash(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  if (personId) return <PersonPage key={personId} id={personId} canEdit={canEdit} isAdmin={isAdmin} />;
  return (
    <>
      <PeopleList canEdit={canEdit} />
      <RecruitsBoard isAdmin={isAdmin} />
    </>
  );
}

const place = (p: Pick<PersonRow, 'city' | 'zip'>) => [p.city, p.zip].filter(Boolean).join(' ');
const langName = (l: string) => (isLang(l) ? LANG_NAMES_FOR_STAFF[l] : 'Not known');

function ConsentBadge({ state }: { state: string }) {
  return (
    <Badge variant={state === 'revoked' ? 'secondary' : state === 'granted' ? 'success' : 'outline'}>
      {consentLabel(state)}
    </Badge>
  );
}

/** A person's name as a link to their page; an unnamed person reads as such. */
function PersonLink({ id, name }: { id: string; name: string }) {
  return <a href={personHash(id)}>{name || `Unnamed person ${id.slice(0, 8)}`}</a>;
}

function PeopleList({ canEdit }: { canEdit: boolean }) {
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<PeopleListFilter>(NO_PEOPLE_FILTER);
  const q = useDebounced(query, 300);
  // The tag is typed: sent after the same pause as the search.
  const tag = useDebounced(picked.tag, 300);
  const filter = { ...picked, tag };
  const filtered = Object.values(filter).some((v) => v.trim() !== '');
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = usePeople(page, q, filter);
  const items = data?.items ?? [];
  useClampPage(page, setPage, data?.total, data?.pageSize ?? PEOPLE_PAGE_SIZE);
  useEffect(() => setPage(1), [q, ...Object.values(filter)]);

  return (
    <section aria-labelledby="people-heading">
      <div className="section-head">
        <div>
          <h2 id="people-heading">People</h2>
          <p className="muted">
            {data
              ? `${data.total.toLocaleString('en-US')} ${data.total === 1 ? 'person' : 'people'}`
              : '\u00a0'}
          </p>
        </div>
      </div>
      <div className="toolbar">
        <PeopleFilters filter={picked} onChange={setPicked} />
        <SearchField
          value={query}
          onChange={setQuery}
          hint={canEdit ? 'Name, email, phone, city or ZIP' : 'Name, city or ZIP'}
        />
      </div>
      <ListState
        isLoading={isLoading}
        error={error}
        empty={items.length === 0}
        emptyText={q.trim() || filtered ? 'No matches for this search and these filters.' : undefined}
      >
        <Table caption="People">
          <thead>
            <tr>
              <th scope="col">Name</th>
              {canEdit ? (
                <>
                  <th scope="col">Email</th>
                  <th scope="col">Phone</th>
                </>
              ) : null}
              <th scope="col">Place</th>
              <th scope="col">Language</th>
              <th scope="col">Sources</th>
              <th scope="col">Emails</th>
              <th scope="col">Texts</th>
              <th scope="col">Added</th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  <PersonLink id={p.id} name={p.name} />
                </th>
                {canEdit ? (
                  <>
                    <td>{(p.emails ?? []).join(', ')}</td>
                    <td>{(p.phones ?? []).join(', ')}</td>
                  </>
                ) : null}
                <td>{place(p)}</td>
                <td>{langName(p.lang)}</td>
                <td>{p.sources.map(sourceLabel).join(', ')}</td>
                <td>
                  <ConsentBadge state={p.emailState} />
                </td>
                <td>
                  <ConsentBadge state={p.textState} />
                </td>
                <td>{formatDateTime(p.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        <Pager
          label="People"
          page={page}
          pageSize={data?.pageSize ?? PEOPLE_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
      {canEdit ? <MergeQueue /> : null}
    </section>
  );
}

/** The merge queue (editors, admins): pairs the matching rules would not merge silently; `only` narrows it to one person's pairs. */
function MergeQueue({ only }: { only?: string }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useMergeQueue(true, only ? 1 : page);
  const [open, setOpen] = useState<QueueEntry | null>(null);
  const entries = (data?.entries ?? []).filter((e) => !only || e.a === only || e.b === only);
  const headingId = useId();
  if (only && entries.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="people-queue">
      <h3 id={headingId}>{only ? 'Possible duplicates of this person' : 'Merge queue'}</h3>
      <p className="muted">
        Sign-ups that share an email or a phone with someone but differ in the rest are never merged on their
        own. Check each pair and merge them if they are one person.
      </p>
      <ListState
        isLoading={isLoading}
        error={error}
        empty={entries.length === 0}
        emptyText="No pairs to check."
      >
        <Table caption={only ? 'Possible duplicates' : 'Merge queue'} captionHidden>
          <thead>
            <tr>
              <th scope="col">First person</th>
              <th scope="col">Second person</th>
              <th scope="col">Why</th>
              <th scope="col">Found</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.key}>
                <td>
                  <QueuedPerson id={e.a} />
                </td>
                <td>
                  <QueuedPerson id={e.b} />
                </td>
                <td>{queueReason(e.reason)}</td>
                <td>{formatDateTime(e.at)}</td>
                <td>
                  <button type="button" className="btn btn--secondary btn--sm" onClick={() => setOpen(e)}>
                    Review and merge
                    <span className="sr-only"> pair found {formatDateTime(e.at)}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
        {only ? null : (
          <Pager label="Merge queue" page={page} pageSize={50} total={data?.total ?? 0} onPage={setPage} />
        )}
      </ListState>
      {open ? <MergeDialog entry={open} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}

/** A queued person's name (read from their record) as a link. */
function QueuedPerson({ id }: { id: string }) {
  const { data, error } = usePerson(id);
  if (error) return <>Person {id.slice(0, 8)} (not found)</>;
  return <PersonLink id={id} name={data?.person.name ?? ''} />;
}

function PersonSummary({ view }: { view: PersonView | undefined }) {
  if (!view) return <p className="muted">Loading…</p>;
  const p = view.person;
  return (
    <ul className="plain-list">
      <li>Names: {p.names.join(', ') || 'None given'}</li>
      {p.emails ? <li>Emails: {p.emails.join(', ') || 'None'}</li> : null}
      {p.phones ? <li>Phones: {p.phones.join(', ') || 'None'}</li> : null}
      <li>Place: {place(p) || 'Not known'}</li>
      <li>Sources: {p.sources.map(sourceLabel).join(', ') || 'None'}</li>
      <li>Added: {formatDateTime(p.createdAt)}</li>
      {p.shifts ? <ShiftAttendanceLine counts={p.shifts} /> : null}
    </ul>
  );
}

/** Merge one of a queued pair into the other: staff see both and choose whom to keep. */
function MergeDialog({ entry, onClose }: { entry: QueueEntry; onClose: () => void }) {
  const a = usePerson(entry.a);
  const b = usePerson(entry.b);
  const [keep, setKeep] = useState<'a' | 'b'>('a');
  const [busy, setBusy] = useState(false);
  const { merge } = usePeopleActions();
  const name = (v: PersonView | undefined, id: string) => v?.person.name || `Person ${id.slice(0, 8)}`;
  const keepId = keep === 'a' ? entry.a : entry.b;
  const goneId = keep === 'a' ? entry.b : entry.a;

  async function onMerge() {
    setBusy(true);
    try {
      await merge(keepId, goneId);
      const kept = keep === 'a' ? name(a.data, entry.a) : name(b.data, entry.b);
      // No Undo in the toast (it would be gone in seconds): the kept person's page keeps one for each merge.
      toast.success('People merged', { description: `Kept ${kept}. Undo it from their page at any time.` });
      onClose();
    } catch (err) {
      toast.error('Could not merge', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Merge two people"
      size="lg"
      description={
        <p>
          Choose the person to keep. The other one&apos;s forms, timeline and consent are shown on the person
          kept; nothing is deleted, and the merge can be undone.
        </p>
      }
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy || !a.data || !b.data}
            onClick={() => void onMerge()}
          >
            Merge
          </button>
        </>
      }
    >
      <fieldset className="merge-choice">
        <legend>Keep</legend>
        {(
          [
            ['a', entry.a, a.data],
            ['b', entry.b, b.data],
          ] as const
        ).map(([side, id, view]) => (
          <div key={side} className="merge-choice__option">
            <label className="field--check">
              <input
                type="radio"
                name="keep"
                value={side}
                checked={keep === side}
                data-autofocus={side === 'a' ? '' : undefined}
                onChange={() => setKeep(side)}
              />{' '}
              {name(view, id)}
            </label>
            <PersonSummary view={view} />
          </div>
        ))}
      </fieldset>
    </Dialog>
  );
}

/** Plain words for a timeline entry's details. */
function describe(e: TimelineItem): string {
  const d = e.detail;
  if (e.source === 'consent') {
    const channel =
      d.channel === 'text' ? 'Texts' : d.channel === 'email' ? 'Emails' : String(d.channel ?? '');
    const action =
      d.action === 'revoke' ? 'stopped' : d.action === 'opt_in' ? 'opted in' : String(d.action ?? '');
    const via = d.via ? ` (${String(d.via).replace(/_/g, ' ')})` : '';
    return `${channel} ${action}${via}${d.wording ? `: “${String(d.wording)}”` : ''}`;
  }
  const parts: string[] = [];
  if (d.eventId !== undefined && d.eventId !== null) parts.push(`Event ${String(d.eventId)}`);
  if (d.round !== undefined && d.round !== null) parts.push(`round ${String(d.round)}`);
  if (d.held) parts.push('held apart (another plan exists for this number)');
  if (d.refcode) parts.push(`refcode ${String(d.refcode)}`);
  return parts.join(', ');
}

function Timeline({ entries, selfId }: { entries: TimelineItem[]; selfId: string }) {
  const sorted = [...entries].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
  if (!sorted.length) return <p className="muted">Nothing recorded yet.</p>;
  return (
    <ol className="timeline">
      {sorted.map((e, i) => {
        const text = describe(e);
        return (
          <li key={`${e.at}-${i}`} className="timeline__item">
            <time dateTime={e.at}>{formatDateTime(e.at)}</time> <strong>{sourceLabel(e.source)}</strong>
            {text ? <> · {text}</> : null}
            {e.personId !== selfId ? (
              <span className="cell-sub">
                From a merged person: <a href={personHash(e.personId)}>open their page</a>
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/** The latest consent entry of a channel on the timeline: when and how the state was set. */
function lastChange(entries: TimelineItem[], channel: 'email' | 'text'): TimelineItem | undefined {
  return entries
    .filter((e) => e.source === 'consent' && e.detail.channel === channel)
    .sort((x, y) => (x.at < y.at ? 1 : -1))[0];
}

const STOP_CHOICES = [
  ['email', 'Emails'],
  ['text', 'Texts'],
  ['all', 'Both emails and texts'],
] as const;

function RecordStop({ id }: { id: string }) {
  const [channel, setChannel] = useState<'email' | 'text' | 'all'>('all');
  const [busy, setBusy] = useState(false);
  const { stop } = usePeopleActions();
  async function onSubmit(ev: React.FormEvent) {
    ev.preventDefault();
    setBusy(true);
    try {
      await stop(id, channel);
      toast.success('Stop recorded', {
        description: `${STOP_CHOICES.find(([c]) => c === channel)![1]} will no longer be sent to this person.`,
      });
    } catch (err) {
      toast.error('Could not record the stop', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="record-stop">
      <fieldset>
        <legend>Record a stop (asked by phone, in person or by letter)</legend>
        {STOP_CHOICES.map(([c, label]) => (
          <label key={c} className="field--check">
            <input
              type="radio"
              name="stop-channel"
              value={c}
              checked={channel === c}
              onChange={() => setChannel(c)}
            />{' '}
            {label}
          </label>
        ))}
        <button type="submit" className="btn btn--secondary btn--sm" disabled={busy}>
          Record stop
        </button>
      </fieldset>
    </form>
  );
}

/** Store names in the removal report, in plain words. */
const STORE_LABELS: Record<string, string> = {
  signups: 'Text sign-ups',
  subscribers: 'Newsletter subscriptions',
  volunteers: 'Volunteer sign-ups',
  contacts: 'Contact messages',
  rsvps: 'RSVPs',
  'vote-plans': 'Plans to vote',
  people: 'People records, lookups and timeline entries',
  outbox: 'Copies of messages sent',
  exports: 'Stored exports',
  ratelimit: 'Rate-limit counters',
};

export const FORGET_CONFIRM =
  'This deletes this person everywhere: every form they sent (sign-ups, volunteer forms, messages), their RSVPs and plan to vote, their place on the text and email lists, copies of messages sent to them, stored exports that name them, and their record and timeline here, with any people merged into them. Only a keyed hash of their email and phone is kept, so they are not imported again. Donations are kept without any personal details. This cannot be undone.';

function ForgetReportDialog({ report, onClose }: { report: ForgetReport; onClose: () => void }) {
  const rows = Object.entries(report.removed).filter(([, n]) => n > 0);
  return (
    <Dialog
      open
      onClose={onClose}
      title="Person forgotten"
      description={
        <p>Everything below was removed. Their email and phone are remembered only as a keyed hash.</p>
      }
      footer={
        <button type="button" className="btn btn--primary" data-autofocus onClick={onClose}>
          Back to People
        </button>
      }
    >
      <Table caption="Removal report">
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Removed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([store, n]) => (
            <tr key={store}>
              <th scope="row">{STORE_LABELS[store] ?? store}</th>
              <td>{n.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ul className="plain-list">
        <li>People merged into them, forgotten with them: {report.mergedPeople}</li>
        <li>Keyed hashes kept so they are not imported again: {report.tombstones}</li>
      </ul>
    </Dialog>
  );
}

function PersonPage({ id, canEdit, isAdmin }: { id: string; canEdit: boolean; isAdmin: boolean }) {
  const { data, error, isLoading } = usePerson(id);
  const heading = useRef<HTMLHeadingElement>(null);
  const { unmerge, forget } = usePeopleActions();
  const [busy, setBusy] = useState(false);
  const [confirmForget, setConfirmForget] = useState(false);
  const [report, setReport] = useState<ForgetReport | null>(null);
  const loaded = Boolean(data);
  // The page has its own heading; focus moves to it when the page opens, so keyboard and screen reader users start there.
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  async function onUndo(mergedId: string) {
    setBusy(true);
    try {
      await unmerge(mergedId);
      toast.success('Merge undone', { description: 'Both people are separate again.' });
    } catch (err) {
      toast.error('Could not undo the merge', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  async function onForget() {
    setBusy(true);
    try {
      const r = await forget(id);
      setConfirmForget(false);
      setReport(r.report);
      toast.success('Person forgotten');
    } catch (err) {
      toast.error('Could not forget this person', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  const p = data?.person;
  const name = p ? p.name || `Unnamed person ${id.slice(0, 8)}` : 'Person';
  return (
    <section aria-labelledby="person-heading" className="person-page">
      <p>
        <a href="#people">← Back to People</a>
      </p>
      <h2 id="person-heading" ref={heading} tabIndex={-1}>
        {name}
      </h2>
      <ListState isLoading={isLoading && !data} error={report ? null : error} empty={false}>
        {p && data ? (
          <>
            <PersonSummary view={data} />
            {p.mergedInto ? (
              <div className="alert alert--warning" role="note">
                <p>
                  Merged into <PersonLink id={p.mergedInto} name="another person" />. Their timeline and
                  consent show there.
                </p>
                {canEdit ? (
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    disabled={busy}
                    onClick={() => void onUndo(id)}
                  >
                    Undo merge
                  </button>
                ) : null}
              </div>
            ) : null}

            <h3>Consent</h3>
            <Table caption="Consent per channel" captionHidden>
              <thead>
                <tr>
                  <th scope="col">Channel</th>
                  <th scope="col">State</th>
                  <th scope="col">Last change</th>
                </tr>
              </thead>
              <tbody>
                {(
                  [
                    ['email', 'Emails', p.emailState],
                    ['text', 'Texts', p.textState],
                  ] as const
                ).map(([channel, label, state]) => {
                  const last = lastChange(data.timeline, channel);
                  return (
                    <tr key={channel}>
                      <th scope="row">{label}</th>
                      <td>
                        <ConsentBadge state={state} />
                      </td>
                      <td>
                        {last
                          ? `${formatDateTime(last.at)}${last.detail.via ? `, ${String(last.detail.via).replace(/_/g, ' ')}` : ''}`
                          : 'None recorded'}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
            {canEdit && !p.mergedInto ? <RecordStop id={id} /> : null}
            {!p.mergedInto ? <PersonInvite id={id} canEdit={canEdit} /> : null}

            {p.merged.length ? (
              <>
                <h3>Merged into this person</h3>
                <ul className="plain-list">
                  {p.merged.map((m) => (
                    <li key={m}>
                      <QueuedPerson id={m} />{' '}
                      {canEdit ? (
                        <button
                          type="button"
                          className="btn btn--secondary btn--sm"
                          disabled={busy}
                          onClick={() => void onUndo(m)}
                        >
                          Undo merge<span className="sr-only"> of {m.slice(0, 8)}</span>
                        </button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}

            {canEdit ? <MergeQueue only={id} /> : null}

            <h3>Timeline</h3>
            <Timeline entries={data.timeline} selfId={id} />

            {isAdmin ? (
              <>
                <h3>Forget this person</h3>
                <p className="muted">When someone asks to be forgotten, this deletes them from every list.</p>
                <button
                  type="button"
                  className="btn btn--destructive"
                  disabled={busy}
                  onClick={() => setConfirmForget(true)}
                >
                  Forget this person
                </button>
              </>
            ) : null}
          </>
        ) : null}
      </ListState>
      <ConfirmDialog
        open={confirmForget}
        title={`Forget ${name}?`}
        message={FORGET_CONFIRM}
        confirmLabel="Forget this person"
        busy={busy}
        onConfirm={() => void onForget()}
        onCancel={() => setConfirmForget(false)}
      />
      {report ? (
        <ForgetReportDialog
          report={report}
          onClose={() => {
            setReport(null);
            location.hash = '#people';
          }}
        />
      ) : null}
    </section>
  );
}
