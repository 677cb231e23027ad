import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, messageOf } from '../../lib/client/api.ts';
import type { Lang } from '../../lib/lang.ts';
import { AUDIENCE_LABELS, OUTCOME_LABELS, OUTCOMES } from '../../lib/schemas/broadcast-rules.ts';
import type { BroadcastChannel, BroadcastInput, BroadcastStatus } from '../../lib/schemas/broadcasts.ts';
import {
  BROADCAST_CHANGED,
  type BroadcastActionName,
  type BroadcastView,
} from '../../lib/schemas/broadcast-views.ts';
import { useRevalidate } from '../api/shared.ts';
import { ADMIN_BROADCASTS, useBroadcast, useBroadcastActions, useBroadcasts } from '../api/broadcasts.ts';
import { broadcastOfHash, onHash, recruitNearOfHash, recruitOfHash } from '../links.ts';
import { Badge, type BadgeVariant } from '../components/Badge.tsx';
import { SelectField, TextField } from '../components/Field.tsx';
import { useOwnPhone } from '../api/staff-phone.ts';
import { STAFF_TESTS_PER_DAY } from '../../lib/schemas/staff-phone.ts';
import { ListState } from '../components/ListState.tsx';
import { Table } from '../components/Table.tsx';
import { formatDateTime, fromLocalInput } from '../forms/datetime.ts';
import { BroadcastComposer, emptyInput } from './BroadcastComposer.tsx';
import { ExportButton } from '../components/ExportButton.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { CAMPAIGN_TIME_ZONE } from '../../lib/campaign-time.ts';
import { IDENTITY } from '../../content/identity.ts';

/*
 * Broadcasts (docs/decisions/152-broadcasts.md): the list; a draft to compose; then its count,
 * cost and preview, a test to the sender's own phone or email, and for admins send, schedule, pause,
 * resume and cancel, with the progress while it goes out.
 */

const STATUS: Record<BroadcastStatus, { label: string; variant: BadgeVariant }> = {
  draft: { label: 'Draft', variant: 'outline' },
  preparing: { label: 'Counting recipients', variant: 'warning' },
  ready: { label: 'Ready to send', variant: 'default' },
  scheduled: { label: 'Scheduled', variant: 'default' },
  sending: { label: 'Sending', variant: 'warning' },
  paused: { label: 'Paused', variant: 'secondary' },
  cancelled: { label: 'Cancelled', variant: 'destructive' },
  completed: { label: 'Completed', variant: 'success' },
};

const CHANNEL: Record<BroadcastChannel, string> = { text: 'Text', email: 'Email' };

const ACTION_LABELS: Record<BroadcastActionName, { label: string; done: string }> = {
  prepare: { label: 'Count recipients and cost', done: 'Counting recipients' },
  send: { label: 'Approve and send now', done: 'Sending' },
  schedule: { label: 'Schedule', done: 'Scheduled' },
  pause: { label: 'Pause', done: 'Paused' },
  resume: { label: 'Resume', done: 'Resumed' },
  cancel: { label: 'Cancel broadcast', done: 'Cancelled' },
};

const money = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const count = (n: number) => n.toLocaleString('en-US');

/** What a send or schedule confirmation says: who, how many, in which languages, what it costs, and when. */
function confirmMessage(view: BroadcastView, at: string | undefined): string {
  const e = view.estimate;
  const b = view.broadcast;
  const who = `“${b.name}” goes to ${count(e.recipients)} ${b.channel === 'text' ? 'numbers' : 'addresses'} (${count(e.spanish)} in Spanish): ${audienceInWords(b.audience)}.`;
  const cost =
    b.channel === 'text'
      ? ` ${count(e.segments)} text ${e.segments === 1 ? 'segment' : 'segments'}, about ${money(e.cost)} at ${unitPrice(e.pricePerSegment)} a segment.`
      : '';
  const time = at
    ? ` It starts ${formatDateTime(at)}.`
    : b.channel === 'text'
      ? ' It starts at once, inside quiet hours where each number is.'
      : ' It starts at once.';
  return `${who}${cost}${time} Version ${view.version.slice(0, 12)}.`;
}

/** "sending resumes at 9:00 AM Eastern (8:00 AM in New Orleans), Mon, Nov 30": the recipients' time and the campaign's. */
export function resumesInWords(r: { at: string; zone: string }): string {
  const at = new Date(r.at);
  const time = (timeZone: string) =>
    at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
  const zoneName =
    new Intl.DateTimeFormat('en-US', { timeZone: r.zone, timeZoneName: 'long' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? r.zone;
  const day = at.toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: CAMPAIGN_TIME_ZONE,
  });
  const here = r.zone === CAMPAIGN_TIME_ZONE ? '' : ` (${time(CAMPAIGN_TIME_ZONE)} in ${IDENTITY.city})`;
  return `sending resumes at ${time(r.zone)} ${zoneName}${here}, ${day}`;
}

/** The audience in words, with every filter that narrows it ("Volunteers · in Spanish · in 70119"). */
export function audienceInWords(a: BroadcastView['broadcast']['audience']): string {
  const parts: string[] = [AUDIENCE_LABELS[a.kind]];
  if (a.kind === 'event_attendees' && a.eventId)
    parts.push(
      `event #${a.eventId}${a.attendeeStatuses?.length ? ` (${a.attendeeStatuses.join(', ')})` : ''}`,
    );
  if (a.lang) parts.push(a.lang === 'es' ? 'in Spanish' : 'in English');
  if (a.place) parts.push(`in ${a.place}`);
  if (a.source) parts.push(`signed up from ${a.source}`);
  if (a.signedUpFrom) parts.push(`signed up on or after ${a.signedUpFrom}`);
  if (a.signedUpTo) parts.push(`signed up on or before ${a.signedUpTo}`);
  if (a.near) parts.push(`nearest ${a.near} first`);
  return parts.join(' · ');
}
/** A price per segment as configured ($0.0083), not rounded to the cent. */
const unitPrice = (n: number) =>
  n.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 4 });

function inputOf(v: BroadcastView): BroadcastInput {
  const b = v.broadcast;
  return {
    name: b.name,
    channel: b.channel,
    audience: b.audience,
    ...(b.text ? { text: b.text } : {}),
    ...(b.email ? { email: b.email } : {}),
  };
}

function Preview({ view, lang }: { view: BroadcastView; lang: Lang }) {
  const p = view.preview[lang];
  const heading = lang === 'en' ? 'English' : 'Spanish';
  if ('text' in p)
    return (
      <figure className="broadcast-preview">
        <figcaption>{heading}</figcaption>
        <p className="broadcast-preview__text">{p.text}</p>
      </figure>
    );
  return (
    <figure className="broadcast-preview">
      <figcaption>
        {heading}: <strong>{p.subject}</strong>
        {p.preview ? <span className="muted"> — {p.preview}</span> : null}
      </figcaption>
      {/* Sanitised on save with the article allowlist (the server's sanitizeArticleHtml). */}
      <div className="broadcast-preview__email" dangerouslySetInnerHTML={{ __html: p.html }} />
    </figure>
  );
}

function Progress({ view }: { view: BroadcastView }) {
  const { progress: p, broadcast: b } = view;
  const done = p.recipients ? Math.round((p.processed / p.recipients) * 100) : 0;
  const rows = OUTCOMES.filter((o) => p.counts[o] > 0);
  return (
    <section className="stack" aria-labelledby="broadcast-progress-heading">
      <h4 id="broadcast-progress-heading">Progress</h4>
      <label className="field__label" htmlFor="broadcast-progress">
        {count(p.processed)} of {count(p.recipients)} done ({done}%)
      </label>
      <progress id="broadcast-progress" max={Math.max(1, p.recipients)} value={p.processed} />
      <dl className="meta meta--stack">
        <div>
          <dt>Queued</dt>
          <dd>{count(p.queued)}</dd>
        </div>
        {p.waiting ? (
          <div>
            <dt>Waiting for quiet hours to end</dt>
            <dd>
              {count(p.waiting)}
              {p.resumes ? <span className="cell-sub"> · {resumesInWords(p.resumes)}</span> : null}
            </dd>
          </div>
        ) : null}
        {rows.map((o) => (
          <div key={o}>
            <dt>{OUTCOME_LABELS[o]}</dt>
            <dd>{count(p.counts[o])}</dd>
          </div>
        ))}
        <div>
          <dt>Delivered (provider reports)</dt>
          <dd>{count(p.reported.delivered)}</dd>
        </div>
        {p.reported.undelivered || p.reported.bounced ? (
          <div>
            <dt>{b.channel === 'text' ? 'Undelivered' : 'Bounced'}</dt>
            <dd>{count(b.channel === 'text' ? p.reported.undelivered : p.reported.bounced)}</dd>
          </div>
        ) : null}
      </dl>
      <ExportButton source="broadcast" params={{ broadcast: String(b.id) }} label="the report" />
    </section>
  );
}

/**
 * A test to the sender only (docs/decisions/152-broadcasts.md): an email to their own address, a
 * text to their own verified phone (shown masked; no number to type). Without one, a link to Security.
 */
function TestSend({ view, email }: { view: BroadcastView; email: string }) {
  const b = view.broadcast;
  const actions = useBroadcastActions();
  const own = useOwnPhone();
  const [lang, setLang] = useState<Lang>('en');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const needsPhone = b.channel === 'text' && own.data?.phone === null;
  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const r = await actions.test(b.id, lang);
      setResult(r.sent ? `Test sent to ${r.to}.` : `Not sent to ${r.to}: ${r.reason}.`);
    } catch (err) {
      setResult(messageOf(err, 'The test could not be sent.'));
    } finally {
      setBusy(false);
      void own.mutate();
    }
  }
  return (
    <form
      className="stack"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby="broadcast-test-heading"
    >
      <h4 id="broadcast-test-heading">Send a test</h4>
      {b.channel === 'email' ? (
        <p className="muted">The test goes to your own address, {email}.</p>
      ) : needsPhone ? (
        <p className="muted" data-testid="test-phone">
          A test text goes only to your own verified phone, and you have none yet:{' '}
          <a href="#security">verify your mobile phone under Security</a>.
        </p>
      ) : (
        <p className="muted" data-testid="test-phone">
          The test goes to your verified phone, <strong>{own.data?.phone ?? '…'}</strong>.
        </p>
      )}
      <SelectField
        id="broadcast-test-lang"
        label="Version"
        value={lang}
        options={[
          { value: 'en', label: 'English' },
          { value: 'es', label: 'Spanish' },
        ]}
        onChange={(e) => setLang(e.target.value as Lang)}
      />
      <div>
        <button type="submit" className="btn btn--secondary" disabled={busy || needsPhone}>
          {busy ? 'Sending test...' : 'Send test'}
        </button>
      </div>
      {own.data ? (
        <p className="muted">
          {own.data.testsLeftToday} of {STAFF_TESTS_PER_DAY} tests left today.
        </p>
      ) : null}
      <p role="status" className="muted">
        {result}
      </p>
    </form>
  );
}

function Detail({
  id,
  canSend,
  email,
  onEdit,
}: {
  id: number;
  canSend: boolean;
  email: string;
  onEdit: (input: BroadcastInput) => void;
}) {
  const { data: view, error, isLoading } = useBroadcast(id);
  const actions = useBroadcastActions();
  const revalidate = useRevalidate();
  const status = view?.broadcast.status;
  // The job moves the status on (counted, completed): the list follows what the polled view sees.
  useEffect(() => {
    if (status) void revalidate(ADMIN_BROADCASTS);
  }, [status, revalidate]);
  const [busy, setBusy] = useState<BroadcastActionName | null>(null);
  // Send and schedule reach the whole audience: a confirmation with the count, the audience and the cost first.
  const [confirming, setConfirming] = useState<'send' | 'schedule' | null>(null);
  const [when, setWhen] = useState('');
  const [whenError, setWhenError] = useState<string | undefined>();
  // Approval is for one version (docs/decisions/152-broadcasts.md): once seen ready, a broadcast
  // that comes back (polled, or after a refused approval) as another version, or edited back to a draft,
  // changed under the reviewer's eyes: say so, until the tab is closed.
  const [changed, setChanged] = useState(false);
  const seenReady = useRef<string | null>(null);
  useEffect(() => {
    if (!view) return;
    const s = view.broadcast.status;
    const ready = seenReady.current;
    if (ready !== null && (view.version !== ready || s === 'draft' || s === 'preparing')) setChanged(true);
    if (s === 'ready') seenReady.current = view.version;
  }, [view]);

  /** Send and schedule ask first (the schedule's time checked before); the other actions run at once. */
  function ask(action: BroadcastActionName) {
    if (action !== 'send' && action !== 'schedule') return void run(action);
    if (action === 'schedule' && !fromLocalInput(when)) {
      setWhenError('Choose a date and time');
      return;
    }
    setWhenError(undefined);
    setConfirming(action);
  }

  async function run(action: BroadcastActionName) {
    setConfirming(null);
    const at = action === 'schedule' ? fromLocalInput(when) : undefined;
    if (action === 'schedule' && !at) {
      setWhenError('Choose a date and time');
      return;
    }
    if (!view) return;
    setWhenError(undefined);
    setBusy(action);
    try {
      // Send and schedule name the version on screen: the one reviewed.
      const approval = { version: view.version, ...(at ? { at } : {}) };
      await actions.act(id, action, action === 'send' || action === 'schedule' ? approval : undefined);
      toast.success(ACTION_LABELS[action].done, { description: view.broadcast.name });
    } catch (err) {
      // The view was read again (act revalidates); a 409 may be a change since it was reviewed.
      if (err instanceof ApiError && err.serverMessage === BROADCAST_CHANGED) setChanged(true);
      toast.error(`Failed: ${ACTION_LABELS[action].label}`, {
        description: messageOf(err, 'Please try again.'),
      });
    } finally {
      setBusy(null);
    }
  }

  if (!view)
    return (
      <ListState isLoading={isLoading} error={error} empty={false}>
        {null}
      </ListState>
    );
  const b = view.broadcast;
  const s = b.status;
  const button = (action: BroadcastActionName, variant = 'btn--secondary') => (
    <button type="button" className={`btn ${variant}`} disabled={busy !== null} onClick={() => ask(action)}>
      {busy === action ? 'Working...' : ACTION_LABELS[action].label}
    </button>
  );
  const e = view.estimate;
  return (
    <article className="card stack broadcast-detail" aria-labelledby="broadcast-detail-heading">
      <h3 id="broadcast-detail-heading">
        {b.name} <Badge variant={STATUS[s].variant}>{STATUS[s].label}</Badge>
      </h3>
      <p className="muted">
        {CHANNEL[b.channel]} · drafted by {b.createdBy}
        {b.approvedBy ? ` · approved by ${b.approvedBy} ${formatDateTime(b.approvedAt)}` : ''}
        {b.scheduledAt && s === 'scheduled' ? ` · goes out ${formatDateTime(b.scheduledAt)}` : ''}
      </p>
      {changed ? (
        <p role="alert" className="alert alert--warning">
          {BROADCAST_CHANGED}. What is shown now is the new version.
        </p>
      ) : null}
      {s === 'draft' || s === 'ready' ? (
        <div className="row-actions">
          <button type="button" className="btn btn--secondary" onClick={() => onEdit(inputOf(view))}>
            Edit draft
          </button>
          {s === 'draft' ? button('prepare', 'btn--primary') : null}
        </div>
      ) : null}
      {s === 'preparing' ? <p role="status">Counting recipients… this page updates by itself.</p> : null}
      {e.recipients > 0 || s === 'ready' ? (
        <section aria-labelledby="broadcast-estimate-heading">
          <h4 id="broadcast-estimate-heading">Before sending</h4>
          <dl className="meta meta--stack">
            <div>
              <dt>Recipients</dt>
              <dd>{count(e.recipients)}</dd>
            </div>
            <div>
              <dt>Of them in Spanish</dt>
              <dd>{count(e.spanish)}</dd>
            </div>
            {b.channel === 'text' ? (
              <>
                <div>
                  <dt>Segments</dt>
                  <dd>{count(e.segments)}</dd>
                </div>
                <div>
                  <dt>Estimated cost</dt>
                  <dd>
                    {money(e.cost)} <span className="muted">at {unitPrice(e.pricePerSegment)} a segment</span>
                  </dd>
                </div>
              </>
            ) : null}
          </dl>
        </section>
      ) : null}
      <section className="stack" aria-labelledby="broadcast-preview-heading">
        <h4 id="broadcast-preview-heading">Preview</h4>
        <div className="broadcast-previews">
          <Preview view={view} lang="en" />
          <Preview view={view} lang="es" />
        </div>
      </section>
      {s !== 'completed' && s !== 'cancelled' ? <TestSend view={view} email={email} /> : null}
      {s === 'ready' && e.recipients === 0 ? (
        <p className="muted">No one is in this audience: edit the draft to choose another.</p>
      ) : null}
      {canSend && s === 'ready' && e.recipients > 0 ? (
        <section className="stack" aria-labelledby="broadcast-send-heading">
          <h4 id="broadcast-send-heading">Send</h4>
          <p className="muted">
            You approve what is shown here: version <code>{view.version.slice(0, 12)}</code>. If it changes
            before you approve, nothing is sent.
          </p>
          <div className="row-actions">{button('send', 'btn--primary')}</div>
          <TextField
            id="broadcast-schedule-at"
            label="Or send later (your time)"
            type="datetime-local"
            value={when}
            error={whenError}
            onChange={(ev) => setWhen(ev.target.value)}
          />
          <div>{button('schedule')}</div>
        </section>
      ) : null}
      {canSend && ['scheduled', 'sending', 'paused', 'preparing', 'ready', 'draft'].includes(s) ? (
        <div className="row-actions">
          {s === 'scheduled' || s === 'sending' ? button('pause') : null}
          {s === 'paused' ? button('resume', 'btn--primary') : null}
          {button('cancel', 'btn--destructive')}
        </div>
      ) : null}
      {!canSend && s === 'ready' ? <p className="muted">An admin approves and sends it.</p> : null}
      <ConfirmDialog
        open={confirming !== null}
        title={
          confirming === 'schedule'
            ? `Schedule for ${count(e.recipients)} ${e.recipients === 1 ? 'recipient' : 'recipients'}?`
            : `Send to ${count(e.recipients)} ${e.recipients === 1 ? 'recipient' : 'recipients'} now?`
        }
        message={confirmMessage(
          view,
          confirming === 'schedule' ? (fromLocalInput(when) ?? undefined) : undefined,
        )}
        confirmLabel={confirming === 'schedule' ? 'Schedule it' : 'Send it now'}
        cancelLabel="Not yet"
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void run(confirming)}
      />
      {s !== 'draft' && s !== 'preparing' && s !== 'ready' ? <Progress view={view} /> : null}
    </article>
  );
}

/**
 * A new email to recruit for a staffing gap (docs/decisions/181-shifts.md): the People audience "volunteers not yet
 * on a shift" (has volunteered, has not shift), named after the gap, nearest the gap's site ZIP first when known.
 */
function recruiting(hash: string): { id: null; input: BroadcastInput } | null {
  const gap = recruitOfHash(hash);
  if (gap === null) return null;
  const near = recruitNearOfHash(hash);
  const input = emptyInput('email');
  return {
    id: null,
    input: {
      ...input,
      name: `Recruit: ${gap}`.slice(0, 120),
      audience: {
        kind: 'people',
        people: { has: ['volunteered'], hasNot: ['shift'] },
        ...(near ? { near } : {}),
      },
    },
  };
}

/** The tab: editors and admins; only admins send (docs/decisions/152-broadcasts.md). */
export function BroadcastsTab({ canSend, email }: { canSend: boolean; email: string }) {
  const { data, error, isLoading } = useBroadcasts();
  // `#broadcasts/<id>` (a link from the Overview: src/admin/links.ts) opens that broadcast's report.
  const [selected, setSelected] = useState<number | null>(() =>
    typeof location === 'undefined' ? null : broadcastOfHash(location.hash),
  );
  // `#broadcasts/recruit?gap=` (a gap in the staffing grid) opens the composer on volunteers not yet on a shift.
  const [composing, setComposing] = useState<{ id: number | null; input: BroadcastInput } | null>(() =>
    typeof location === 'undefined' ? null : recruiting(location.hash),
  );
  const items = data?.items ?? [];
  useEffect(
    () =>
      onHash((hash) => {
        const recruit = recruiting(hash);
        if (recruit !== null) setComposing(recruit);
        const id = broadcastOfHash(hash);
        if (id === null) return;
        setComposing(null);
        setSelected(id);
      }),
    [],
  );

  return (
    <section aria-labelledby="broadcasts-heading" className="stack">
      <div className="section-head">
        <div>
          <h2 id="broadcasts-heading">Broadcasts</h2>
          <p className="muted">
            Texts and emails to the people on the site’s lists. Texts go only to subscribed numbers, inside
            9:00–20:00 where each person is; every text names the campaign and says how to stop.
          </p>
        </div>
        <div className="row-actions">
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => setComposing({ id: null, input: emptyInput('text') })}
          >
            New text
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => setComposing({ id: null, input: emptyInput('email') })}
          >
            New email
          </button>
        </div>
      </div>
      {composing ? (
        <div className="card">
          <h3>{composing.id === null ? `New ${composing.input.channel}` : `Edit ${composing.input.name}`}</h3>
          <BroadcastComposer
            key={`${composing.id ?? 'new'}-${composing.input.channel}`}
            id={composing.id}
            initial={composing.input}
            onSaved={(id) => {
              setComposing(null);
              setSelected(id);
            }}
            onCancel={() => setComposing(null)}
          />
        </div>
      ) : null}
      <ListState isLoading={isLoading} error={error} empty={items.length === 0}>
        <Table caption="Broadcasts" captionHidden>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Channel</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {items.map((b) => (
              <tr key={b.id} aria-current={b.id === selected ? 'true' : undefined}>
                <th scope="row">{b.name}</th>
                <td>{CHANNEL[b.channel]}</td>
                <td>
                  <Badge variant={STATUS[b.status].variant}>{STATUS[b.status].label}</Badge>
                </td>
                <td>{formatDateTime(b.updatedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    onClick={() => {
                      setComposing(null);
                      setSelected(b.id);
                    }}
                  >
                    Open<span className="sr-only"> {b.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </ListState>
      {selected !== null && !composing ? (
        <Detail
          key={selected}
          id={selected}
          canSend={canSend}
          email={email}
          onEdit={(input) => setComposing({ id: selected, input })}
        />
      ) : null}
    </section>
  );
}
