import { useEffect, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, messageOf } from '../../lib/client/api.ts';
import { formatCampaignDateTime } from '../../lib/campaign-time.ts';
import {
  electionStage,
  OUTCOMES,
  POST_ELECTION_MODES,
  type ElectionCalendar,
  type ElectionRound,
  type Outcome,
  type PostElectionMode,
} from '../../lib/election-stage.ts';
import { useElectionCalendar, useImportSites, useSaveElectionCalendar } from '../api/election.ts';
import { CheckboxField, SelectField, TextField } from '../components/Field.tsx';
import {
  checkCalendar,
  dayAfter,
  fieldId,
  fieldKey,
  problemsFrom,
  withValue,
  type Problem,
} from '../forms/election-form.ts';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';
import { NextElection } from './NextElection.tsx';

/*
 * Election (admins): the calendar field by field (docs/decisions/157-election-calendar.md), checked here with
 * the server's schema before it is sent, each problem on its field and listed above the form (each a link to its
 * field); the server checks again, stores and audits. The early-voting sites come from a CSV file
 * (docs/decisions/157-election-calendar.md). The public pages follow at the next stage check
 * (docs/decisions/157-election-calendar.md).
 */

const MODE_LABELS: Record<PostElectionMode, string> = {
  none: 'No result chosen (the site says the election was held)',
  won: 'We won (thank you, what comes next)',
  lost: 'We lost (thank you)',
  runoff: 'Runoff (the runoff’s dates must be filled in)',
  ended: 'Campaign ended',
};
const OUTCOME_LABELS: Record<Outcome, string> = {
  none: 'No result chosen yet',
  won: 'We won',
  lost: 'We lost',
  ended: 'Campaign ended',
};
/** The round's deadlines, by group: where each sits in the round, and its label. */
const DEADLINES = {
  'Registration deadlines': [
    [['registration', 'inPerson'], 'Registration in person'],
    [['registration', 'byMail'], 'Registration by mail (postmarked)'],
    [['registration', 'online'], 'Registration online'],
  ],
  'Mail-ballot deadlines': [
    [['mailBallot', 'request'], 'Mail ballot: request by'],
    [['mailBallot', 'return'], 'Mail ballot: returned by'],
  ],
} as const;

type Path = (string | number)[];
type Edit = (path: Path, value: unknown) => void;
type ErrorOf = (path: Path) => string | undefined;

/** A date or time input named by its path in the calendar. */
function At({
  path,
  label,
  type,
  value,
  edit,
  error,
}: {
  path: Path;
  label: string;
  type: 'date' | 'time';
  value: string;
  edit: Edit;
  error: ErrorOf;
}) {
  return (
    <TextField
      id={fieldId(fieldKey(path))}
      label={label}
      type={type}
      value={value}
      required
      error={error(path)}
      onChange={(e) => edit(path, e.target.value)}
    />
  );
}

/** A day with its hours: an early-voting day, or Election Day. */
function DayFields({
  path,
  day,
  labels,
  edit,
  error,
}: {
  path: Path;
  day: { date: string; open: string; close: string };
  labels: { date: string; open: string; close: string };
  edit: Edit;
  error: ErrorOf;
}) {
  return (['date', 'open', 'close'] as const).map((part) => (
    <At
      key={part}
      path={[...path, part]}
      label={labels[part]}
      type={part === 'date' ? 'date' : 'time'}
      value={day[part]}
      edit={edit}
      error={error}
    />
  ));
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="translation-fieldset election-group">
      <legend>{legend}</legend>
      <div className="election-fields">{children}</div>
    </fieldset>
  );
}

function RoundFields({
  round,
  at,
  title,
  sites,
  edit,
  error,
}: {
  round: ElectionRound;
  at: 'primary' | 'runoff';
  title: string;
  sites: ElectionCalendar['sites'];
  edit: Edit;
  error: ErrorOf;
}) {
  const field = { edit, error };
  const days = round.earlyVoting;
  return (
    <section className="stack" aria-labelledby={`${at}-heading`}>
      <h3 id={`${at}-heading`}>{title}</h3>
      {Object.entries(DEADLINES).map(([legend, deadlines]) => (
        <Group key={legend} legend={legend}>
          {deadlines.map(([where, label]) => {
            const [group, which] = where;
            const deadline = (round[group] as Record<string, { date: string; time: string }>)[which]!;
            return (
              <div key={which} className="election-pair">
                {(['date', 'time'] as const).map((part) => (
                  <At
                    key={part}
                    {...field}
                    path={[at, group, which, part]}
                    label={`${label}: ${part === 'date' ? 'date' : 'closes at'}`}
                    type={part}
                    value={deadline[part]}
                  />
                ))}
              </div>
            );
          })}
        </Group>
      ))}
      <Group legend="Early voting">
        {days.length === 0 ? <p className="muted">No early voting in this round.</p> : null}
        {days.map((day, i) => {
          const n = i + 1;
          const sitesPath = [at, 'earlyVoting', i, 'sites'];
          const sitesError = error(sitesPath);
          const sitesId = fieldId(fieldKey(sitesPath));
          return (
            <fieldset
              key={i}
              className="translation-fieldset election-day"
              aria-describedby={sitesError ? `${sitesId}-error` : undefined}
            >
              <legend>{`Early-voting day ${n}`}</legend>
              <div className="election-fields">
                <DayFields
                  {...field}
                  path={[at, 'earlyVoting', i]}
                  day={day}
                  labels={{
                    date: `Day ${n}: date`,
                    open: `Day ${n}: opens at`,
                    close: `Day ${n}: closes at`,
                  }}
                />
              </div>
              <div
                id={sitesId}
                className="election-sites"
                role="group"
                aria-label={`Day ${n}: sites open`}
                tabIndex={-1}
              >
                {sites.map((site) => (
                  <CheckboxField
                    key={site.id}
                    id={`${sitesId}-${site.id}`}
                    label={site.name}
                    checked={day.sites.includes(site.id)}
                    onChange={(e) =>
                      edit(
                        sitesPath,
                        e.target.checked
                          ? sites.map((s) => s.id).filter((id) => id === site.id || day.sites.includes(id))
                          : day.sites.filter((id) => id !== site.id),
                      )
                    }
                  />
                ))}
              </div>
              {sitesError ? (
                <p id={`${sitesId}-error`} className="field__error">
                  {sitesError}
                </p>
              ) : null}
              <div>
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  onClick={() =>
                    edit(
                      [at, 'earlyVoting'],
                      days.filter((_, j) => j !== i),
                    )
                  }
                >
                  {`Remove early-voting day ${n}`}
                </button>
              </div>
            </fieldset>
          );
        })}
        <div>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => {
              const last = days.at(-1);
              edit(
                [at, 'earlyVoting'],
                [
                  ...days,
                  last
                    ? { ...last, date: dayAfter(last.date) }
                    : {
                        date: round.electionDay.date,
                        open: '08:30',
                        close: '18:00',
                        sites: sites.map((s) => s.id),
                      },
                ],
              );
            }}
          >
            Add an early-voting day
          </button>
        </div>
      </Group>
      <Group legend="Election Day">
        <DayFields
          {...field}
          path={[at, 'electionDay']}
          day={round.electionDay}
          labels={{ date: 'Election Day: date', open: 'Polls open at', close: 'Polls close at' }}
        />
        <At
          {...field}
          path={[at, 'resultsDate']}
          label="Results date"
          type="date"
          value={round.resultsDate}
        />
      </Group>
    </section>
  );
}

export function ElectionTab() {
  const { data, error } = useElectionCalendar();
  const save = useSaveElectionCalendar();
  const [draft, setDraft] = useState<ElectionCalendar | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (data && draft === null) setDraft(data.calendar);
  }, [data, draft]);
  const stage = draft ? electionStage(draft, new Date()) : null;

  /** Once a save was tried, each edit checks again, so a mended field's message goes at once. */
  function edit(path: Path, value: unknown) {
    if (!draft) return;
    const next = withValue(draft, path, value);
    setDraft(next);
    if (checked) setProblems(checkCalendar(next));
  }
  const byField = new Map<string, string>();
  for (const p of problems) if (p.key && !byField.has(p.key)) byField.set(p.key, p.message);
  const errorOf: ErrorOf = (path) => byField.get(fieldKey(path));

  /** A summary link moves focus to its field (the address stays: the dashboard keeps its tab in the hash). */
  function goTo(e: SyntheticEvent, key: string) {
    e.preventDefault();
    const el = document.getElementById(fieldId(key));
    el?.scrollIntoView({ block: 'center' });
    el?.focus();
  }

  function refused(found: Problem[]) {
    setProblems(found);
    requestAnimationFrame(() => summary.current?.focus());
  }

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (!draft || busy) return;
    setChecked(true);
    const found = checkCalendar(draft);
    if (found.length) return refused(found);
    setBusy(true);
    setProblems([]);
    try {
      await save(draft);
      toast.success('Election calendar saved', { description: 'The public pages follow within minutes.' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) refused(problemsFrom(err.fields, draft));
      toast.error('Failed to save the calendar', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  const importSites = useImportSites();
  const [csvProblems, setCsvProblems] = useState<string[]>([]);
  async function onImport(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = new FormData(e.currentTarget).get('sites');
    if (!(file instanceof File) || file.size === 0) {
      setCsvProblems(['Choose a CSV file']);
      return;
    }
    setCsvProblems([]);
    try {
      const saved = await importSites(await file.text());
      setDraft((d) => (d ? { ...d, sites: saved.calendar.sites } : saved.calendar));
      toast.success('Sites imported', { description: `${saved.calendar.sites.length} early-voting sites.` });
    } catch (err) {
      if (err instanceof ApiError) {
        const body = JSON.parse(err.body || '{}') as {
          rows?: { row: number; message: string }[];
          problems?: string[];
        };
        setCsvProblems(body.rows?.map((r) => `Row ${r.row}: ${r.message}`) ?? body.problems ?? []);
      }
      toast.error('Failed to import the sites', { description: messageOf(err, 'Please try again.') });
    }
  }

  return (
    <section aria-labelledby="election-heading" className="stack">
      <h2 id="election-heading">Election</h2>
      {error ? (
        <p className="state state--error" role="alert">
          {messageOf(error, 'Could not load the election calendar.')}
        </p>
      ) : null}
      {data ? (
        <p className="muted">
          {data.isDefault
            ? 'The seeded calendar (nothing saved yet).'
            : `Last changed by ${data.updatedBy ?? 'unknown'}${data.updatedAt ? `, ${formatCampaignDateTime(data.updatedAt)}` : ''}.`}
          {stage
            ? ` Stage now: ${stage.round} ${stage.kind}${stage.kind === 'results' ? ` (${stage.outcome})` : ''}.`
            : ''}{' '}
          Dates and times are campaign time (New Orleans).
        </p>
      ) : null}
      {data ? (
        <NextElection
          calendar={data.calendar}
          onStarted={(calendar) => {
            setDraft(calendar);
            setProblems([]);
          }}
        />
      ) : null}
      <form className="stack" onSubmit={(e) => void onImport(e)} aria-labelledby="sites-csv-heading">
        <h3 id="sites-csv-heading">Early-voting sites from a CSV file</h3>
        <p className="muted">
          Columns: id, name, address, map_url (optional), zip (optional: else the ZIP at the end of the
          address; recruiting for a site asks the nearest volunteers first). The file replaces the site list;
          a bad row refuses the whole file.
        </p>
        {draft ? (
          <ul aria-label="Early-voting sites now">
            {draft.sites.map((s) => (
              <li key={s.id}>
                {s.name}, {s.address}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="field">
          <label htmlFor="election-sites-csv" className="field__label">
            CSV file
          </label>
          <input id="election-sites-csv" name="sites" type="file" accept=".csv,text/csv" className="input" />
        </div>
        {csvProblems.length ? (
          <ul className="state state--error" aria-label="Rows refused">
            {csvProblems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : null}
        <div>
          <button type="submit" className="btn btn--secondary">
            Import sites
          </button>
        </div>
      </form>
      {draft ? (
        <form
          className="stack-lg"
          onSubmit={(e) => void onSubmit(e)}
          noValidate
          aria-labelledby="calendar-heading"
        >
          <h3 id="calendar-heading">The calendar</h3>
          {problems.length ? (
            <div
              className="state state--error"
              tabIndex={-1}
              ref={summary}
              role="alert"
              aria-labelledby="calendar-problems"
            >
              <p id="calendar-problems">
                {`${problems.length} problem${problems.length === 1 ? '' : 's'} to fix before saving:`}
              </p>
              <ul>
                {problems.map((p, i) => (
                  <li key={`${p.key ?? ''}${i}`}>
                    {p.key ? (
                      <a href={`#${fieldId(p.key)}`} onClick={(e) => goTo(e, p.key!)}>
                        {p.message}
                      </a>
                    ) : (
                      p.message
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <SelectField
            id={fieldId('mode')}
            label="After the election"
            value={draft.mode}
            error={errorOf(['mode'])}
            onChange={(e) => edit(['mode'], e.target.value)}
            options={POST_ELECTION_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }))}
          />
          <RoundFields
            round={draft.primary}
            at="primary"
            title="The election"
            sites={draft.sites}
            edit={edit}
            error={errorOf}
          />
          <div className="stack">
            <CheckboxField
              id={fieldId('runoff')}
              label="This election has a runoff"
              hint={errorOf(['runoff']) ?? 'Its dates start as a copy of the election’s: change each one.'}
              aria-invalid={errorOf(['runoff']) ? true : undefined}
              checked={draft.runoff !== null}
              onChange={(e) =>
                edit(['runoff'], e.target.checked ? { ...draft.primary, outcome: 'none' } : null)
              }
            />
            {draft.runoff ? (
              <>
                <RoundFields
                  round={draft.runoff}
                  at="runoff"
                  title="The runoff"
                  sites={draft.sites}
                  edit={edit}
                  error={errorOf}
                />
                <SelectField
                  id={fieldId('runoff.outcome')}
                  label="After the runoff"
                  value={draft.runoff.outcome}
                  error={errorOf(['runoff', 'outcome'])}
                  onChange={(e) => edit(['runoff', 'outcome'], e.target.value)}
                  options={OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABELS[o] }))}
                />
              </>
            ) : null}
          </div>
          <div>
            <SubmitButton
              busy={busy}
              label="Save calendar"
              busyLabel="Saving..."
              className="btn btn--primary"
            />
          </div>
        </form>
      ) : null}
    </section>
  );
}
