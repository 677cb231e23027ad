import { useEffect, useMemo, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, messageOf } from '../../lib/client/api.ts';
import { formatCampaignDateTime } from '../../lib/campaign-time.ts';
import {
  electionStage,
  POST_ELECTION_MODES,
  type ElectionCalendar,
  type PostElectionMode,
} from '../../lib/election-stage.ts';
import { ElectionCalendarSchema } from '../../lib/schemas/election.ts';
import { useElectionCalendar, useImportSites, useSaveElectionCalendar } from '../api/election.ts';
import { SelectField, TextArea } from '../components/Field.tsx';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';

/*
 * Election (admins): the post-election mode, and the whole calendar as JSON, checked here with the server's schema
 * before it is sent (the server checks again, stores and audits). The public pages follow at the next stage check
 * (docs/decisions/088-stage-rebuild.md). A field-by-field form is still to come; the JSON editor shows every
 * problem with its field's path.
 */

const MODE_LABELS: Record<PostElectionMode, string> = {
  none: 'No result chosen (the site says the election was held)',
  won: 'We won (thank you, what comes next)',
  lost: 'We lost (thank you)',
  runoff: 'Runoff (the runoff’s dates must be filled in)',
  ended: 'Campaign ended',
};

/** "primary.electionDay.close: Opening time must be before closing time" for each problem. */
function problemsOf(text: string): { calendar: ElectionCalendar | null; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { calendar: null, problems: [`Not valid JSON: ${(err as Error).message}`] };
  }
  const parsed = ElectionCalendarSchema.safeParse(raw);
  if (parsed.success) return { calendar: parsed.data, problems: [] };
  return {
    calendar: null,
    problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(calendar)'}: ${i.message}`),
  };
}

export function ElectionTab() {
  const { data, error } = useElectionCalendar();
  const save = useSaveElectionCalendar();
  const [text, setText] = useState<string | null>(null);
  const [serverProblems, setServerProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (data && text === null) setText(JSON.stringify(data.calendar, null, 2));
  }, [data, text]);
  const checked = useMemo(() => (text === null ? null : problemsOf(text)), [text]);
  const stage = checked?.calendar ? electionStage(checked.calendar, new Date()) : null;

  function setMode(mode: PostElectionMode) {
    if (!checked?.calendar) return;
    setText(JSON.stringify({ ...checked.calendar, mode }, null, 2));
  }

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (!checked?.calendar) return;
    setBusy(true);
    setServerProblems([]);
    try {
      await save(checked.calendar);
      toast.success('Election calendar saved', { description: 'The public pages follow within minutes.' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400)
        setServerProblems(Object.entries(err.fields).map(([path, message]) => `${path}: ${message}`));
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
      setText(JSON.stringify(saved.calendar, null, 2));
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

  const problems = [...(checked?.problems ?? []), ...serverProblems];
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
            : ''}
        </p>
      ) : null}
      <form className="stack" onSubmit={(e) => void onImport(e)} aria-labelledby="sites-csv-heading">
        <h3 id="sites-csv-heading">Early-voting sites from a CSV file</h3>
        <p className="muted">
          Columns: id, name, address, map_url (optional). The file replaces the site list; a bad row refuses
          the whole file.
        </p>
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
      {text !== null && checked ? (
        <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate>
          <SelectField
            id="election-mode"
            label="After the election"
            value={checked.calendar?.mode ?? 'none'}
            disabled={!checked.calendar}
            onChange={(e) => setMode(e.target.value as PostElectionMode)}
            options={POST_ELECTION_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }))}
          />
          <TextArea
            id="election-calendar"
            label="Calendar (dates YYYY-MM-DD and hours HH:MM, campaign time)"
            rows={24}
            spellCheck={false}
            value={text}
            error={
              problems.length
                ? `${problems.length} problem${problems.length === 1 ? '' : 's'} to fix`
                : undefined
            }
            onChange={(e) => {
              setText(e.target.value);
              setServerProblems([]);
            }}
          />
          {problems.length ? (
            <ul className="state state--error" aria-label="Problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
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
