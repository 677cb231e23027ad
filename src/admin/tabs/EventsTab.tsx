import { useState } from 'react';
import { toast } from 'sonner';
import { EVENT_TYPE_LABELS, type CampaignEvent } from '../../lib/schemas/event.ts';
import { EVENTS_PAGE_SIZE, useEvents } from '../api/get-events.ts';
import { useDeleteEvent } from '../api/delete-event.ts';
import { Badge } from '../components/Badge.tsx';
import { ListState } from '../components/ListState.tsx';
import { Pager, useClampPage } from '../components/Pager.tsx';
import { EventModal } from '../modals/EventModal.tsx';
import { eventForm, newEventForm, type EventForm } from '../forms/event-form.ts';
import { formatDate, formatTime } from '../forms/datetime.ts';
import { failureDescription } from '../forms/errors.ts';

export function EventsTab({ canEdit }: { canEdit: boolean }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useEvents(page);
  const [editing, setEditing] = useState<EventForm | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const remove = useDeleteEvent();
  const events = data?.events ?? [];
  useClampPage(page, setPage, data?.total, data?.pageSize ?? EVENTS_PAGE_SIZE);

  async function onDelete(ev: CampaignEvent) {
    setDeleting(ev.id);
    try {
      await remove(ev.id);
      toast.success('Event deleted successfully!');
    } catch (err) {
      toast.error('Failed to delete event', { description: failureDescription(err, 'Please try again.') });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section aria-labelledby="events-heading">
      <div className="section-head">
        <div>
          <h2 id="events-heading">Events Management</h2>
          <p className="muted">{data ? `${data.total} event${data.total === 1 ? '' : 's'}` : '\u00a0'}</p>
        </div>
        {canEdit ? (
          <button type="button" className="btn btn--primary" onClick={() => setEditing(newEventForm())}>
            Add Event
          </button>
        ) : null}
      </div>
      <ListState isLoading={isLoading} error={error} empty={events.length === 0}>
        <ul className="records" aria-label="Events">
          {events.map((ev) => (
            <li key={ev.id} className="record">
              <div className="record__main">
                <div className="record__title-row">
                  <h3 className="record__title">{ev.title}</h3>
                  <Badge variant={ev.isPublic ? 'success' : 'secondary'}>
                    {ev.isPublic ? 'Public' : 'Private'}
                  </Badge>
                  <Badge variant="outline">{EVENT_TYPE_LABELS[ev.eventType] ?? ev.eventType}</Badge>
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
              </div>
              {canEdit ? (
                <div className="record__actions">
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    onClick={() => setEditing(eventForm(ev))}
                  >
                    Edit<span className="sr-only"> {ev.title}</span>
                  </button>
                  <button
                    type="button"
                    className="btn btn--destructive btn--sm"
                    disabled={deleting === ev.id}
                    onClick={() => void onDelete(ev)}
                  >
                    Delete<span className="sr-only"> {ev.title}</span>
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        <Pager
          label="Events"
          page={page}
          pageSize={data?.pageSize ?? EVENTS_PAGE_SIZE}
          total={data?.total ?? 0}
          onPage={setPage}
        />
      </ListState>
      {editing ? <EventModal key={editing.id} initial={editing} onClose={() => setEditing(null)} /> : null}
    </section>
  );
}
