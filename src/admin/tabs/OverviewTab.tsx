import { useId, useState, type ReactNode } from 'react';
import { formatCampaignDateTime } from '../../lib/campaign-time.ts';
import {
  OVERVIEW_PERIODS,
  SIGNUP_KINDS,
  sourceLabel,
  type ActivityKind,
  type Overview,
  type OverviewPeriod,
} from '../../lib/schemas/overview.ts';
import { broadcastHash, eventShiftsHash, inboxHash, type InboxLink } from '../links.ts';
import { useOverview } from '../api/get-overview.ts';
import { BarChart, type Series } from '../charts/BarChart.tsx';
import { ListState } from '../components/ListState.tsx';
import { Table } from '../components/Table.tsx';
import { usd } from './DonationsTab.tsx';

/** What each count is called, and the dashboard tab that lists what it counts. */
export const KIND_LABELS: Record<ActivityKind, { label: string; tab: string }> = {
  'signup.text': { label: 'Text sign-ups', tab: 'inbox' },
  'signup.newsletter': { label: 'Newsletter', tab: 'inbox' },
  'signup.volunteer': { label: 'Volunteers', tab: 'inbox' },
  'signup.rsvp': { label: 'RSVPs', tab: 'events' },
  'signup.plan': { label: 'Plans to vote', tab: 'plans' },
  'text.optin': { label: 'Text opt-ins', tab: 'inbox' },
  'text.optout': { label: 'STOP replies', tab: 'inbox' },
  'text.carrier_optout': { label: 'Carrier opt-outs', tab: 'inbox' },
  'email.optin': { label: 'Email confirmations', tab: 'inbox' },
  'email.unsubscribe': { label: 'Unsubscribes', tab: 'inbox' },
  'email.bounce': { label: 'Bounces', tab: 'inbox' },
  'email.spam': { label: 'Spam reports', tab: 'inbox' },
};

/**
 * The list a kind's figure opens (docs/decisions/180-overview.md): sign-ups, the Inbox list of that period (its
 * sign-up days); opt-outs and email losses, the list of that status (a status has no date: the period is not
 * carried); RSVPs and plans, their tabs.
 */
export function kindHref(kind: ActivityKind, o: Pick<Overview, 'from' | 'to'>): string {
  const period = { from: o.from, to: o.to };
  const inbox: Partial<Record<ActivityKind, InboxLink>> = {
    'signup.text': { list: 'text-signups', ...period },
    'signup.newsletter': { list: 'email-subscribers', ...period },
    'signup.volunteer': { list: 'volunteers', ...period },
    'text.optin': { list: 'text-signups', ...period },
    'text.optout': { list: 'text-signups', status: 'stopped' },
    'text.carrier_optout': { list: 'text-signups', status: 'stopped' },
    'email.optin': { list: 'email-subscribers', status: 'subscribed' },
    'email.unsubscribe': { list: 'email-subscribers', status: 'unsubscribed' },
    'email.bounce': { list: 'email-subscribers', status: 'bounced' },
    'email.spam': { list: 'email-subscribers', status: 'spam_reported' },
  };
  const link = inbox[kind];
  return link ? inboxHash(link) : `#${KIND_LABELS[kind].tab}`;
}

const PERIOD_LABELS: Record<OverviewPeriod, string> = {
  '7': 'Last 7 days',
  '30': 'Last 30 days',
  launch: 'Since launch',
};

const TEXT_KINDS = ['text.optin', 'text.optout', 'text.carrier_optout'] as const;
const EMAIL_KINDS = ['email.optin', 'email.unsubscribe', 'email.bounce', 'email.spam'] as const;

/** "Nov 1" for a campaign day. */
const dayLabel = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function seriesOf(o: Overview, kinds: readonly ActivityKind[]): Series[] {
  return kinds.map((k) => ({ key: k, label: KIND_LABELS[k].label, values: o.days.map((d) => d.counts[k]) }));
}

/** "31 on Nov 1" for the busiest day, or '' when every day is 0. */
function busiest(o: Overview, kinds: readonly ActivityKind[]): string {
  let best = { day: '', n: 0 };
  for (const d of o.days) {
    const n = kinds.reduce((s, k) => s + d.counts[k], 0);
    if (n > best.n) best = { day: d.day, n };
  }
  return best.n ? `; the most, ${best.n.toLocaleString('en-US')}, on ${dayLabel(best.day)}` : '';
}

/** The day-by-kind table beside a chart: the same numbers, readable without the picture. */
function DayTable({
  caption,
  o,
  kinds,
  tabs,
}: {
  caption: string;
  o: Overview;
  kinds: readonly ActivityKind[];
  tabs: readonly string[];
}) {
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <th scope="col">Day</th>
          {kinds.map((k) => (
            <th scope="col" key={k}>
              <TabLink tab={KIND_LABELS[k].tab} tabs={tabs} href={kindHref(k, o)}>
                {KIND_LABELS[k].label}
              </TabLink>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {o.days.map((d) => (
          <tr key={d.day}>
            <th scope="row">{dayLabel(d.day)}</th>
            {kinds.map((k) => (
              <td key={k}>{d.counts[k]}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/**
 * A figure counted per day (sign-ups, the text list, the email list) as a section: its chart, then the same numbers
 * as a table (DayTable); `children` follow them.
 */
function DayFigure({
  id,
  heading,
  title,
  summary,
  caption,
  kinds,
  stacked,
  o,
  tabs,
  children,
}: {
  id: string;
  heading: string;
  /** The chart's title and summary. */
  title: string;
  summary: string;
  /** The table's caption. */
  caption: string;
  kinds: readonly ActivityKind[];
  stacked?: boolean;
  o: Overview;
  tabs: readonly string[];
  children?: ReactNode;
}) {
  return (
    <section className="stack" aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      <BarChart
        title={title}
        summary={summary}
        labels={o.days.map((d) => dayLabel(d.day))}
        series={seriesOf(o, kinds)}
        stacked={stacked}
      />
      <DayTable caption={caption} o={o} kinds={kinds} tabs={tabs} />
      {children}
    </section>
  );
}

/**
 * A link to the list a figure counts (`href`, by default the tab), when this user has that tab; else the plain
 * words.
 */
function TabLink({
  tab,
  tabs,
  href,
  children,
}: {
  tab: string;
  tabs: readonly string[];
  href?: string;
  children: string;
}) {
  return tabs.includes(tab) ? <a href={href ?? `#${tab}`}>{children}</a> : <>{children}</>;
}

/** Sign-ups by source: one bar per source (page, refcode, invite link), stacked by form. */
function SourcesChart({ o, range }: { o: Overview; range: string }) {
  const sources = [...new Set(o.sources.map((s) => s.source))];
  if (!sources.length) return null;
  const kinds = SIGNUP_KINDS.filter((k) => o.sources.some((s) => s.kind === k));
  const count = (source: string, kind: ActivityKind) =>
    o.sources.find((s) => s.source === source && s.kind === kind)?.count ?? 0;
  const totals = sources.map((src) => kinds.reduce((n, k) => n + count(src, k), 0));
  const top = totals.indexOf(Math.max(...totals));
  return (
    <BarChart
      title={`Sign-ups by source, ${range}`}
      summary={`${plural(sources.length, 'source', 'sources')}; the most, ${totals[top]!.toLocaleString(
        'en-US',
      )}, from ${sourceLabel(sources[top]!)}.`}
      labels={sources.map(sourceLabel)}
      series={kinds.map((k) => ({
        key: k,
        label: KIND_LABELS[k].label,
        values: sources.map((src) => count(src, k)),
      }))}
      stacked
    />
  );
}

/** The next seven days' shifts: places needed and filled per day, and the shifts with places open. */
function ShiftGaps({ o, tabs }: { o: Overview; tabs: readonly string[] }) {
  const needed = o.shifts.reduce((n, d) => n + d.needed, 0);
  const filled = o.shifts.reduce((n, d) => n + d.filled, 0);
  const first = o.shifts[0]?.day;
  const last = o.shifts[o.shifts.length - 1]?.day;
  const week = first && last ? `${dayLabel(first)} to ${dayLabel(last)}` : 'the next seven days';
  return (
    <section className="stack" aria-labelledby="ov-shifts">
      <h3 id="ov-shifts">Shifts, the next seven days</h3>
      {needed === 0 ? (
        <p className="muted">No shifts in the next seven days.</p>
      ) : (
        <>
          <BarChart
            title={`Shift places filled and open per day, ${week}`}
            summary={`${filled.toLocaleString('en-US')} of ${plural(needed, 'place', 'places')} filled; ${plural(
              needed - filled,
              'place',
              'places',
            )} open.`}
            labels={o.shifts.map((d) => dayLabel(d.day))}
            series={[
              { key: 'filled', label: 'Filled', values: o.shifts.map((d) => d.filled) },
              { key: 'open', label: 'Open', values: o.shifts.map((d) => d.needed - d.filled) },
            ]}
            stacked
          />
          <Table caption="Shift places per day, and the shifts with places open">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Needed</th>
                <th scope="col">Filled</th>
                <th scope="col">Open</th>
                <th scope="col">Shifts with places open</th>
              </tr>
            </thead>
            <tbody>
              {o.shifts.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{dayLabel(d.day)}</th>
                  <td>{d.needed}</td>
                  <td>{d.filled}</td>
                  <td>{d.needed - d.filled}</td>
                  <td>
                    {d.gaps.length === 0 ? (
                      d.needed ? (
                        'All filled'
                      ) : (
                        'No shifts'
                      )
                    ) : (
                      <ul className="plain-list">
                        {d.gaps.map((g) => (
                          <li key={`${g.eventId}/${g.slotId}`}>
                            <TabLink tab="events" tabs={tabs} href={eventShiftsHash(g.eventId, g.title)}>
                              {`${g.title}, ${g.start}–${g.end}${g.label ? ` (${g.label})` : ''}`}
                            </TabLink>
                            {`: ${g.filled} of ${g.needed}`}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </section>
  );
}

function Figures({ o, tabs }: { o: Overview; tabs: readonly string[] }) {
  const t = o.totals;
  const signups = SIGNUP_KINDS.reduce((s, k) => s + t[k], 0);
  const textNet = t['text.optin'] - t['text.optout'] - t['text.carrier_optout'];
  const emailNet = t['email.optin'] - t['email.unsubscribe'] - t['email.bounce'] - t['email.spam'];
  const signed = (n: number) => (n > 0 ? `+${n.toLocaleString('en-US')}` : n.toLocaleString('en-US'));
  const range = `${dayLabel(o.from)} to ${dayLabel(o.to)}`;
  return (
    <>
      <dl className="cards" aria-label="Totals">
        <div className="card">
          <dt className="stat__label">New sign-ups</dt>
          <dd className="stat__value">{signups.toLocaleString('en-US')}</dd>
        </div>
        <div className="card">
          <dt className="stat__label">Text list, net</dt>
          <dd className="stat__value">{signed(textNet)}</dd>
        </div>
        <div className="card">
          <dt className="stat__label">Email list, net</dt>
          <dd className="stat__value">{signed(emailNet)}</dd>
        </div>
        <div className="card">
          <dt className="stat__label">Raised, net</dt>
          <dd className="stat__value">{usd(o.donations.netCents)}</dd>
        </div>
      </dl>

      <DayFigure
        id="ov-signups"
        heading="Sign-ups"
        title={`Sign-ups per day, ${range}`}
        summary={`${plural(signups, 'sign-up', 'sign-ups')} from ${range}${busiest(o, SIGNUP_KINDS)}.`}
        caption="Sign-ups per day, by form"
        kinds={SIGNUP_KINDS}
        stacked
        o={o}
        tabs={tabs}
      >
        <SourcesChart o={o} range={range} />
        <Table caption="Sign-ups by source">
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Form</th>
              <th scope="col">Sign-ups</th>
            </tr>
          </thead>
          <tbody>
            {o.sources.length === 0 ? (
              <tr>
                <td colSpan={3}>No sign-ups in this period.</td>
              </tr>
            ) : (
              o.sources.map((s) => (
                <tr key={`${s.kind} ${s.source}`}>
                  <th scope="row">{sourceLabel(s.source)}</th>
                  <td>{KIND_LABELS[s.kind].label}</td>
                  <td>{s.count}</td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      </DayFigure>

      <DayFigure
        id="ov-text"
        heading="Text list"
        title={`Text opt-ins and opt-outs per day, ${range}`}
        summary={`${plural(t['text.optin'], 'opt-in', 'opt-ins')} against ${plural(
          t['text.optout'] + t['text.carrier_optout'],
          'opt-out',
          'opt-outs',
        )} (net ${signed(textNet)}).`}
        caption="Text list per day"
        kinds={TEXT_KINDS}
        o={o}
        tabs={tabs}
      />

      <DayFigure
        id="ov-email"
        heading="Email list"
        title={`Email confirmations and losses per day, ${range}`}
        summary={`${plural(t['email.optin'], 'confirmation', 'confirmations')}, ${plural(
          t['email.unsubscribe'],
          'unsubscribe',
          'unsubscribes',
        )}, ${plural(t['email.bounce'], 'bounce', 'bounces')} and ${plural(
          t['email.spam'],
          'spam report',
          'spam reports',
        )} (net ${signed(emailNet)}).`}
        caption="Email list per day"
        kinds={EMAIL_KINDS}
        o={o}
        tabs={tabs}
      />

      <ShiftGaps o={o} tabs={tabs} />

      <section className="stack" aria-labelledby="ov-broadcasts">
        <h3 id="ov-broadcasts">Recent broadcasts</h3>
        <Table caption="The latest broadcasts that went out">
          <thead>
            <tr>
              <th scope="col">Broadcast</th>
              <th scope="col">Channel</th>
              <th scope="col">Recipients</th>
              <th scope="col">Sent</th>
              <th scope="col">Delivered</th>
              <th scope="col">Failed or undelivered</th>
              <th scope="col">Skipped</th>
              <th scope="col">Opt-outs that day and the next</th>
            </tr>
          </thead>
          <tbody>
            {o.broadcasts.length === 0 ? (
              <tr>
                <td colSpan={8}>No broadcast has gone out yet.</td>
              </tr>
            ) : (
              o.broadcasts.map((b) => (
                <tr key={b.id}>
                  <th scope="row">
                    <TabLink tab="broadcasts" tabs={tabs} href={broadcastHash(b.id)}>
                      {b.name}
                    </TabLink>
                  </th>
                  <td>{b.channel === 'text' ? 'Text' : 'Email'}</td>
                  <td>{b.recipients}</td>
                  <td>{b.sent}</td>
                  <td>{b.delivered}</td>
                  <td>{b.failed + b.undelivered}</td>
                  <td>{b.skipped}</td>
                  <td>{b.optOutsAfter ?? 'Outside this period'}</td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      </section>

      <section className="stack" aria-labelledby="ov-events">
        <h3 id="ov-events">Events</h3>
        <Table caption="Events in this period: signed up against checked in">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Date</th>
              <th scope="col">Going</th>
              <th scope="col">Waitlist</th>
              <th scope="col">Checked in</th>
              <th scope="col">Places</th>
            </tr>
          </thead>
          <tbody>
            {o.events.length === 0 ? (
              <tr>
                <td colSpan={6}>No events in this period.</td>
              </tr>
            ) : (
              o.events.map((e) => (
                <tr key={e.id}>
                  <th scope="row">
                    <TabLink tab="events" tabs={tabs}>
                      {e.title}
                    </TabLink>
                  </th>
                  <td>{dayLabel(e.date)}</td>
                  <td>{e.going}</td>
                  <td>{e.waitlisted}</td>
                  <td>{e.attended}</td>
                  <td>{e.capacity ?? 'No limit'}</td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      </section>

      <section className="stack" aria-labelledby="ov-donations">
        <h3 id="ov-donations">Donations</h3>
        <p>
          {usd(o.donations.netCents)} net from {plural(o.donations.count, 'gift', 'gifts')}
          {o.donations.goalCents ? ` toward the public goal of ${usd(o.donations.goalCents)}` : ''}.{' '}
          <TabLink tab="donations" tabs={tabs}>
            Open Donations
          </TabLink>
        </p>
        <Table caption="Donations by refcode">
          <thead>
            <tr>
              <th scope="col">Refcode</th>
              <th scope="col">Gifts</th>
              <th scope="col">Net</th>
            </tr>
          </thead>
          <tbody>
            {o.donations.byRefcode.length === 0 ? (
              <tr>
                <td colSpan={3}>No gifts in this period.</td>
              </tr>
            ) : (
              o.donations.byRefcode.map((r) => (
                <tr key={r.refcode}>
                  <th scope="row">{r.refcode}</th>
                  <td>{r.count}</td>
                  <td>{usd(r.netCents)}</td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      </section>

      <section className="stack" aria-labelledby="ov-goals">
        <h3 id="ov-goals">Goals and milestones</h3>
        {o.goals.length === 0 ? (
          <p className="muted">No goals yet.</p>
        ) : (
          <ul className="goal-list">
            {o.goals.map((g, i) => (
              <li key={`${g.kind}-${i}`}>
                <span className="goal-list__label">{g.label}</span>{' '}
                <span>
                  {g.current.toLocaleString('en-US')}
                  {g.target ? ` of ${g.target.toLocaleString('en-US')}` : ''}
                </span>
                {g.target ? (
                  <progress
                    max={g.target}
                    value={Math.min(g.current, g.target)}
                    aria-label={`${g.label}: progress`}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <p>
          <TabLink tab="progress" tabs={tabs}>
            Open Campaign Progress
          </TabLink>
        </p>
      </section>
    </>
  );
}

/**
 * The campaign at a glance (docs/decisions/180-overview.md): every staff role, figures only (no names, no
 * addresses), for the last 7 or 30 days or since launch, in the campaign's time zone.
 */
export function OverviewTab({ tabs }: { tabs: readonly string[] }) {
  const [period, setPeriod] = useState<OverviewPeriod>('7');
  const { data, error, isLoading } = useOverview(period);
  const id = useId();
  return (
    <section aria-labelledby="overview-heading" className="stack-lg">
      <div className="section-head">
        <div>
          <h2 id="overview-heading">Overview</h2>
          <p className="muted">Who joined, how the lists moved, what went out and what came in.</p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-period`}>Period</label>
          <select
            id={`${id}-period`}
            value={period}
            onChange={(e) => setPeriod(e.target.value as OverviewPeriod)}
          >
            {OVERVIEW_PERIODS.map((p) => (
              <option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {data?.behind ? (
        <p className="state state--error" role="status">
          The daily counts are behind:{' '}
          {data.behind.since
            ? `they were last brought up to date ${formatCampaignDateTime(data.behind.since)}`
            : 'they have not been brought up to date yet'}
          . The figures below include what is waiting; if this stays, ask whoever runs the site to check the
          overview-rollup job or run npm run reindex.
        </p>
      ) : null}
      <ListState isLoading={isLoading && !data} error={error} empty={false}>
        {data ? <Figures o={data} tabs={tabs} /> : null}
      </ListState>
    </section>
  );
}
