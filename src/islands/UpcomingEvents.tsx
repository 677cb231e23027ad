import useSWR from 'swr';
import { queryFetcher } from '../lib/client/api.ts';
import { campaignToday, formatEventDate, formatTime } from '../lib/campaign-time.ts';
import { MAX_BLOG_EVENTS, withInitialData } from '../lib/public-lists.ts';
import type { IslandUi } from '../content/ui.ts';
import type { PublicEvent } from '../lib/schemas/event.ts';
import { eventCalendarPath, eventPagePath, takesRsvps } from '../lib/schemas/rsvp-rules.ts';
import { fill } from '../lib/fill.ts';
import { DEFAULT_LANG, type Lang } from '../lib/lang.ts';
import { localizedPath } from '../lib/lang-paths.ts';
import '../styles/islands.css';

interface Props {
  /** Server-rendered first list (null: skeletons until the first fetch). */
  initialEvents?: PublicEvent[] | null;
  /** When the server rendered the initial list (ISO 8601): an older list is refreshed on mount. */
  renderedAt?: string;
  eventTypeLabels: Record<string, string>;
  /** The list's words and date format in the page's language (src/content/ui.ts `islandUi`). */
  words: EventWords;
  locale: string;
  /** The page's language: the list it refreshes (`/api/events?lang=`) and the event pages it links. */
  lang: Lang;
}

type EventWords = Pick<
  IslandUi,
  | 'eventsUnavailable'
  | 'noEvents'
  | 'registrationRequired'
  | 'openToAll'
  | 'date'
  | 'time'
  | 'location'
  | 'maxAttendees'
  | 'rsvpFor'
  | 'registerFor'
  | 'registerNow'
  | 'addToCalendar'
  | 'rsvp'
>;

function EventCard({
  event,
  label,
  words,
  locale,
  lang,
}: {
  event: PublicEvent;
  label: string;
  words: EventWords;
  locale: string;
  lang: Lang;
}) {
  // The event's own text is English where it has no version in the page's language.
  const textLang = event.lang !== lang ? event.lang : undefined;
  return (
    <article className="card event-card" data-event-id={event.id}>
      <div className="event-badges">
        <span className="badge">{label}</span>
        <span className={`badge ${event.registrationRequired ? 'badge--warn' : 'badge--success'}`}>
          {event.registrationRequired ? words.registrationRequired : words.openToAll}
        </span>
      </div>
      <h3 lang={textLang}>{event.title}</h3>
      <dl className="event-facts">
        <div>
          <dt>{words.date}</dt>
          <dd>
            <time dateTime={event.eventDate}>{formatEventDate(event.eventDate, locale)}</time>
          </dd>
        </div>
        <div>
          <dt>{words.time}</dt>
          <dd>
            {formatTime(event.startTime, locale)}
            {event.endTime ? ` - ${formatTime(event.endTime, locale)}` : ''}
          </dd>
        </div>
        <div>
          <dt>{words.location}</dt>
          <dd>{event.location}</dd>
        </div>
        {event.maxAttendees != null && (
          <div>
            <dt>{words.maxAttendees}</dt>
            <dd>{event.maxAttendees}</dd>
          </div>
        )}
      </dl>
      {event.description && <p lang={textLang}>{event.description}</p>}
      <div className="cta-row">
        {takesRsvps(event) && (
          <a className="btn btn--primary" href={localizedPath(eventPagePath(event.id), lang)}>
            {words.rsvp}
            <span className="visually-hidden"> {fill(words.rsvpFor, event.title)}</span>
          </a>
        )}
        {event.registrationUrl && (
          <a
            className="btn btn--primary"
            href={event.registrationUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {words.registerNow}
            <span className="visually-hidden"> {fill(words.registerFor, event.title)}</span>
          </a>
        )}
        {/* A plain link to the event's .ics file: it works before the list hydrates and without JavaScript. */}
        <a className="btn btn--outline" href={localizedPath(eventCalendarPath(event.id), lang)} download>
          {words.addToCalendar}
          <span className="visually-hidden">: {event.title}</span>
        </a>
      </div>
    </article>
  );
}

/**
 * A list of event cards, soonest first as given: the blog's island below, and /contact's full list, rendered on
 * the server only (no client directive: no JavaScript; docs/decisions/162-public-pages-and-performance.md).
 */
export function EventList({
  events,
  eventTypeLabels,
  words,
  locale,
  lang,
}: {
  events: PublicEvent[];
  eventTypeLabels: Record<string, string>;
  words: EventWords;
  locale: string;
  lang: Lang;
}) {
  if (events.length === 0) return <p className="notice">{words.noEvents}</p>;
  return (
    <div className="grid event-list">
      {events.map((e) => (
        <EventCard
          key={e.id}
          event={e}
          label={eventTypeLabels[e.eventType] ?? e.eventType}
          words={words}
          locale={locale}
          lang={lang}
        />
      ))}
    </div>
  );
}

/** Blog: up to 3 upcoming public events, refreshed every 30 s (spec sections 2, 4, 9). */
export default function UpcomingEvents({
  initialEvents = null,
  renderedAt,
  eventTypeLabels,
  words,
  locale,
  lang,
}: Props) {
  const events = useSWR<{ events: PublicEvent[] }>(
    lang === DEFAULT_LANG ? '/api/events' : `/api/events?lang=${lang}`,
    queryFetcher,
    withInitialData(initialEvents && { events: initialEvents }, renderedAt),
  );
  // The API already returns public events soonest first; past and private ones are filtered again here.
  const today = campaignToday();
  const upcoming = events.data?.events
    .filter((e) => e.isPublic && e.eventDate >= today)
    .sort((a, b) => (a.eventDate + a.startTime).localeCompare(b.eventDate + b.startTime))
    .slice(0, MAX_BLOG_EVENTS);

  if (upcoming === undefined) {
    return events.error ? (
      <p className="notice">{words.eventsUnavailable}</p>
    ) : (
      <div className="grid" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <div key={i} className="card skeleton skeleton--event" />
        ))}
      </div>
    );
  }
  return (
    <EventList
      events={upcoming}
      eventTypeLabels={eventTypeLabels}
      words={words}
      locale={locale}
      lang={lang}
    />
  );
}
