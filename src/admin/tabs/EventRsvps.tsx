import { useEffect, useId, useState } from 'react';
import type { RsvpRow } from '../../lib/schemas/rsvp.ts';
import { useCheckIn } from '../api/check-in.ts';
import { RSVP_PAGE_SIZE, useRsvps } from '../api/get-rsvps.ts';
import { Badge } from '../components/Badge.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { ExportButton } from '../components/ExportButton.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { formatDateTime } from '../forms/datetime.ts';
import { CheckInButton, toggleCheckIn, type EventPeopleDialogProps } from './CheckIn.tsx';

const STATUS_BADGE = { going: 'success', waitlisted: 'warning', cancelled: 'secondary' } as const;
const STATUS_LABEL = { going: 'Going', waitlisted: 'Waitlisted', cancelled: 'Cancelled' } as const;

function Person({
  r,
  canEdit,
  onToggle,
  busy,
}: {
  r: RsvpRow;
  canEdit: boolean;
  onToggle: () => void;
  busy: boolean;
}) {
  return (
    <li className="record rsvp-person" data-rsvp-person={r.email}>
      <div className="record__main">
        <div className="record__title-row">
          <h3 className="record__title">{r.name}</h3>
          <Badge variant={STATUS_BADGE[r.status]}>
            {STATUS_LABEL[r.status]}
            {r.position ? ` #${r.position}` : ''}
          </Badge>
          {r.checkedInAt ? <Badge variant="default">Checked in</Badge> : null}
          {/* Their own answer to the "how did it go" email (181, "The event without slots"). */}
          {r.reported ? (
            <Badge variant="default">
              {r.reported === 'attended' ? 'Says they came' : 'Says they could not come'}
            </Badge>
          ) : null}
        </div>
        <p className="record__text">
          {r.guests ? `+${r.guests} guest${r.guests === 1 ? '' : 's'} · ` : ''}
          {r.email}
          {r.phone ? ` · ${r.phone}` : ''}
        </p>
        <p className="cell-sub">
          RSVP {formatDateTime(r.createdAt)}
          {r.checkedInAt ? ` · checked in ${formatDateTime(r.checkedInAt)}` : ''}
        </p>
      </div>
      {canEdit && r.status === 'going' ? (
        <div className="record__actions">
          <CheckInButton p={r} busy={busy} onToggle={onToggle} />
        </div>
      ) : null}
    </li>
  );
}

/**
 * The people coming to one event: going / waitlisted / capacity, each person
 * with time and guests, a check-in button per person (large, for a phone at
 * the door), a name filter and the CSV export.
 */
export function EventRsvps({ eventId, title, canEdit, onClose }: EventPeopleDialogProps) {
  const [q, setQ] = useState('');
  // The search runs on the server, a moment after typing stops.
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(q);
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [q]);
  const { data, error, isLoading } = useRsvps(eventId, page, search);
  useClampPage(page, setPage, data?.total, RSVP_PAGE_SIZE);
  const checkIn = useCheckIn(eventId);
  const [busy, setBusy] = useState<string | null>(null);
  const id = useId();
  const rows = data?.items ?? [];

  const toggle = (r: RsvpRow) => toggleCheckIn(r, (on) => checkIn(r.id, on), setBusy);

  return (
    <Dialog
      open
      onClose={onClose}
      title={`RSVPs: ${title}`}
      size="lg"
      description={
        data
          ? `Going: ${data.goingPeople} (${data.goingSeats} seats with guests) · Capacity: ${data.capacity ?? 'unlimited'} · Waitlisted: ${data.waitlistedPeople} · Checked in: ${data.checkedIn}`
          : undefined
      }
      footer={
        <>
          <ExportButton source="attendees" params={{ event: String(eventId) }} label="the RSVPs" />
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <div className="field">
        <label htmlFor={`${id}-q`} className="field__label">
          Find a person
        </label>
        <input
          id={`${id}-q`}
          type="search"
          className="input"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      <ListState isLoading={isLoading && !data} error={error} empty={rows.length === 0}>
        <ul className="records" aria-label="People">
          {rows.map((r) => (
            <Person key={r.id} r={r} canEdit={canEdit} busy={busy === r.id} onToggle={() => void toggle(r)} />
          ))}
        </ul>
        <Pager
          label="People"
          page={page}
          pageSize={RSVP_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
    </Dialog>
  );
}
