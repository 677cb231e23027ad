import { useEffect, useState } from 'react';
import { eventTranslationStatus } from '../../lib/schemas/event.ts';
import { islandUi } from '../../content/ui.ts';
import { TRANSLATION_LANGS } from '../../lib/schemas/translation.ts';
import { takesRsvps } from '../../lib/schemas/rsvp-rules.ts';
import { EVENTS_PAGE_SIZE, useEvents } from '../api/get-events.ts';
import { useDeleteEvent } from '../api/delete-event.ts';
import { Badge } from '../components/Badge.tsx';
import { TranslationBadge } from '../components/TranslationBadge.tsx';
import { useClampPage } from '../components/Pager.tsx';
import { RecordList } from '../components/RecordList.tsx';
import { useRestoreFromTrash } from '../api/trash.ts';
import { RowButton } from '../components/RowButton.tsx';
import { RevisionsDialog } from '../modals/RevisionsDialog.tsx';
import { EventModal } from '../modals/EventModal.tsx';
import { eventForm, newEventForm, type EventForm } from '../forms/event-form.ts';
import { formatDate } from '../forms/datetime.ts';
import { formatTime } from '../../lib/campaign-time.ts';
import { EventRsvps } from './EventRsvps.tsx';
import { EventShifts } from './EventShifts.tsx';
import { eventShiftsOfHash, onHash } from '../links.ts';

export function EventsTab({ canEdit }: { canEdit: boolean }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useEvents(page);
  const [editing, setEditing] = useState<EventForm | null>(null);
  const [history, setHistory] = useState<{ id: number; title: string } | null>(null);
  const [rsvps, setRsvps] = useState<{ id: number; title: string } | null>(null);
  // `#events/<id>/shifts` (a link from the Overview's shift gaps: src/admin/links.ts) opens that event's shifts.
  const [shifts, setShifts] = useState<{ id: number; title: string } | null>(() =>
    typeof location === 'undefined' ? null : eventShiftsOfHash(location.hash),
  );
  useEffect(
    () =>
      onHash((hash) => {
        const linked = eventShiftsOfHash(hash);
        if (linked) setShifts(linked);
      }),
    [],
  );
  const remove = useDeleteEvent();
  const restore = useRestoreFromTrash();
  const pageSize = data?.pageSize ?? EVENTS_PAGE_SIZE;
  useClampPage(page, setPage, data?.total, pageSize);

  return (
    <RecordList
      name="events"
      heading="Events Management"
      noun="event"
      label="Events"
      addLabel="Add Event"
      canEdit={canEdit}
      data={data && { records: data.events, total: data.total }}
      error={error}
      isLoading={isLoading}
      page={page}
      pageSize={pageSize}
      onPage={setPage}
      onAdd={() => setEditing(newEventForm())}
      onEdit={(ev) => setEditing(eventForm(ev))}
      remove={remove}
      undo={(id) => restore('event', id)}
      undone="Event restored"
      deleted="Event deleted successfully!"
      deleteFailed="Failed to delete event"
      extraActions={(r) => (
        <RowButton action="History" name={r.title} onClick={() => setHistory({ id: r.id, title: r.title })} />
      )}
      renderRecord={(ev) => (
        <>
          <div className="record__title-row">
            <h3 className="record__title">{ev.title}</h3>
            <Badge variant={ev.isPublic ? 'success' : 'secondary'}>
              {ev.isPublic ? 'Public' : 'Private'}
            </Badge>
            <Badge variant="outline">{islandUi.eventTypeLabels[ev.eventType] ?? ev.eventType}</Badge>
            {TRANSLATION_LANGS.map((lang) => (
              <TranslationBadge key={lang} lang={lang} status={eventTranslationStatus(ev, lang)} />
            ))}
          </div>
          {ev.description ? <p className="record__text">{ev.description}</p> : null}
          <dl className="meta">
            <div>
              <dt>When</dt>
              <dd>
                {formatDate(ev.eventDate)}, {formatTime(ev.startTime)}
                {ev.endTime ? `–${formatTime(ev.endTime)}` : ''}
              </dd>
            </div>
            <div>
              <dt>Location</dt>
              <dd>{ev.location}</dd>
            </div>
            <div>
              <dt>Max attendees</dt>
              <dd>{ev.maxAttendees ?? 'Unlimited'}</dd>
            </div>
            <div>
              <dt>Registration</dt>
              <dd>{ev.registrationRequired ? 'Required' : 'Not required'}</dd>
            </div>
          </dl>
          {takesRsvps(ev) ? (
            <button
              type="button"
              className="btn btn--secondary btn--sm"
              onClick={() => setRsvps({ id: ev.id, title: ev.title })}
            >
              RSVPs and check-in<span className="sr-only">: {ev.title}</span>
            </button>
          ) : null}
          {takesRsvps(ev) ? (
            <button
              type="button"
              className="btn btn--secondary btn--sm"
              onClick={() => setShifts({ id: ev.id, title: ev.title })}
            >
              Shifts and staffing plan<span className="sr-only">: {ev.title}</span>
            </button>
          ) : null}
        </>
      )}
    >
      {editing ? <EventModal key={editing.id} initial={editing} onClose={() => setEditing(null)} /> : null}
      {history ? (
        <RevisionsDialog
          kind="event"
          id={history.id}
          title={history.title}
          canRestore={canEdit}
          onClose={() => setHistory(null)}
        />
      ) : null}
      {rsvps ? (
        <EventRsvps eventId={rsvps.id} title={rsvps.title} canEdit={canEdit} onClose={() => setRsvps(null)} />
      ) : null}
      {shifts ? (
        <EventShifts
          eventId={shifts.id}
          title={shifts.title}
          canEdit={canEdit}
          onClose={() => setShifts(null)}
        />
      ) : null}
    </RecordList>
  );
}
