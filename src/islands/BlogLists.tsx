import useSWR from 'swr';
import { queryFetcher } from '../lib/client/api.ts';
import { campaignToday, formatEventDate, formatPublishedDate, formatTime } from '../lib/client/dates.ts';
import { buildCalendar, icsFileName } from '../lib/ics.ts';
import { categoryFor } from '../lib/schemas/category.ts';
import type { Article } from '../lib/schemas/article.ts';
import type { CampaignEvent } from '../lib/schemas/event.ts';
import '../styles/islands.css';

/** What a card shows: the article without its full content (keeps the page's HTML small). */
export type ArticleSummary = Omit<Article, 'content'>;

interface Props {
  /** Server-rendered first lists (null: skeletons until the first fetch). */
  initialArticles?: ArticleSummary[] | null;
  initialEvents?: CampaignEvent[] | null;
  candidateName: string;
  eventTypeLabels: Record<string, string>;
  /** Calendar name for the .ics downloads. */
  calendarName: string;
  fallbackImage?: string;
}

/** Spec section 9: public lists refresh every 30 s; no refetch on focus (section 7). */
const SWR_OPTIONS = { refreshInterval: 30_000, revalidateOnFocus: false, shouldRetryOnError: false } as const;
const MAX_EVENTS = 3;

function downloadIcs(event: CampaignEvent, calendarName: string) {
  const ics = buildCalendar([event], { name: calendarName, uidHost: location.hostname });
  const url = URL.createObjectURL(new Blob([ics], { type: 'text/calendar;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = icsFileName(event);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function EventCard({ event, label, calendarName }: { event: CampaignEvent; label: string; calendarName: string }) {
  return (
    <article className="card event-card" data-event-id={event.id}>
      <div className="event-badges">
        <span className="badge">{label}</span>
        <span className={`badge ${event.registrationRequired ? 'badge--warn' : 'badge--success'}`}>
          {event.registrationRequired ? 'Registration Required' : 'Open to All'}
        </span>
      </div>
      <h3>{event.title}</h3>
      <dl className="event-facts">
        <div>
          <dt>Date</dt>
          <dd>
            <time dateTime={event.eventDate}>{formatEventDate(event.eventDate)}</time>
          </dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>
            {formatTime(event.startTime)}
            {event.endTime ? ` - ${formatTime(event.endTime)}` : ''}
          </dd>
        </div>
        <div>
          <dt>Location</dt>
          <dd>{event.location}</dd>
        </div>
        {event.maxAttendees != null && (
          <div>
            <dt>Max attendees</dt>
            <dd>{event.maxAttendees}</dd>
          </div>
        )}
      </dl>
      {event.description && <p>{event.description}</p>}
      <div className="cta-row">
        {event.registrationUrl && (
          <a className="btn btn--primary" href={event.registrationUrl} target="_blank" rel="noopener noreferrer">
            Register Now<span className="visually-hidden"> for {event.title} (opens in a new tab)</span>
          </a>
        )}
        <button type="button" className="btn btn--outline" onClick={() => downloadIcs(event, calendarName)}>
          Add to calendar<span className="visually-hidden">: {event.title}</span>
        </button>
      </div>
    </article>
  );
}

function ArticleCard({ article, candidateName, fallbackImage }: { article: ArticleSummary; candidateName: string; fallbackImage: string }) {
  return (
    <article className="card article-card" data-slug={article.slug}>
      <img
        className="article-card-image"
        src={article.imageUrl || fallbackImage}
        alt=""
        width={1200}
        height={630}
        loading="lazy"
        decoding="async"
      />
      <div className="article-card-body">
        <span className="badge">{categoryFor(article.author, candidateName)}</span>
        <h3>{article.title}</h3>
        <p className="meta">
          {article.publishedAt && <time dateTime={article.publishedAt}>{formatPublishedDate(article.publishedAt)}</time>}
          {article.publishedAt ? ' · ' : ''}
          {article.author}
        </p>
        {article.excerpt && <p>{article.excerpt}</p>}
        <a className="btn btn--secondary" href={`/article/${encodeURIComponent(article.slug)}`}>
          Read More<span className="visually-hidden">: {article.title}</span>
        </a>
      </div>
    </article>
  );
}

/**
 * Blog: up to 3 upcoming public events and the grid of published articles,
 * both refreshed every 30 s with swr (spec sections 2, 4, 9).
 */
export default function BlogLists({
  initialArticles = null,
  initialEvents = null,
  candidateName,
  eventTypeLabels,
  calendarName,
  fallbackImage = '/images/article-fallback.svg',
}: Props) {
  const news = useSWR<{ articles: ArticleSummary[] }>('/api/news', queryFetcher, {
    ...SWR_OPTIONS,
    ...(initialArticles ? { fallbackData: { articles: initialArticles } } : {}),
  });
  const events = useSWR<{ events: CampaignEvent[] }>('/api/events', queryFetcher, {
    ...SWR_OPTIONS,
    ...(initialEvents ? { fallbackData: { events: initialEvents } } : {}),
  });

  // The API already returns public events soonest first; past ones and private ones are filtered again here.
  const today = campaignToday();
  const upcoming = events.data?.events
    .filter((e) => e.isPublic && e.eventDate >= today)
    .sort((a, b) => (a.eventDate + a.startTime).localeCompare(b.eventDate + b.startTime))
    .slice(0, MAX_EVENTS);
  const articles = news.data?.articles;

  return (
    <>
      <section className="section blog-events" aria-labelledby="upcoming-events-heading">
        <div className="container">
          <h2 id="upcoming-events-heading">Upcoming Events</h2>
          {upcoming === undefined ? (
            events.error ? (
              <p className="notice">Events could not be loaded right now. Please try again later.</p>
            ) : (
              <div className="grid" aria-busy="true">
                {[0, 1, 2].map((i) => (
                  <div key={i} className="card skeleton skeleton--event" />
                ))}
              </div>
            )
          ) : upcoming.length === 0 ? (
            <p className="notice">No upcoming events are scheduled right now. Check back soon.</p>
          ) : (
            <div className="grid event-list">
              {upcoming.map((e) => (
                <EventCard key={e.id} event={e} label={eventTypeLabels[e.eventType] ?? e.eventType} calendarName={calendarName} />
              ))}
            </div>
          )}
          <p className="cta-row cta-row--center">
            <a className="btn btn--outline" href="/contact">
              View All Events
            </a>
            <a className="btn btn--outline" href="/events.ics">
              Subscribe to the calendar
            </a>
          </p>
        </div>
      </section>
      <section className="section section--alt blog-articles" aria-labelledby="latest-news-heading">
        <div className="container">
          <h2 id="latest-news-heading">Latest News</h2>
          {articles === undefined ? (
            news.error ? (
              <p className="notice">News could not be loaded right now. Please try again later.</p>
            ) : (
              <div className="grid" aria-busy="true">
                {[0, 1, 2].map((i) => (
                  <div key={i} className="card skeleton skeleton--article" />
                ))}
              </div>
            )
          ) : articles.length === 0 ? (
            <p className="notice">No news articles yet. Check back soon.</p>
          ) : (
            <div className="grid article-grid">
              {articles.map((a) => (
                <ArticleCard key={a.id} article={a} candidateName={candidateName} fallbackImage={fallbackImage} />
              ))}
            </div>
          )}
        </div>
      </section>
    </>
  );
}
