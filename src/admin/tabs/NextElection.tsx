import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, messageOf } from '../../lib/client/api.ts';
import { campaignToday, formatEventDate } from '../../lib/campaign-time.ts';
import {
  electionStage,
  nextElectionCalendar,
  registrationCloses,
  type ElectionCalendar,
} from '../../lib/election-stage.ts';
import { ELECTION_MESSAGES } from '../../lib/schemas/election.ts';
import { useStartNextElection } from '../api/election.ts';
import { TextField } from '../components/Field.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';

/*
 * Starting the next election in one step (docs/decisions/157-election-calendar.md, "Starting the next
 * election"): shown once the election the site follows is over. The admin gives the next Election Day; a
 * confirmation says what the site will stop saying and the dates the calendar moves to; the server moves the
 * dates, clears the outcome and runoff, stores and audits. The form below then shows the new dates to check.
 */

/** What the confirmation says: the election left behind, the new dates, and what changes on the site. */
export function nextElectionMessage(calendar: ElectionCalendar, electionDay: string, now: Date): string {
  const last = electionStage(calendar, now).dates.electionDay.date;
  const next = nextElectionCalendar(calendar, electionDay).primary;
  const early = next.earlyVoting;
  const earlyText = early.length
    ? ` early voting ${formatEventDate(early[0]!.date)} to ${formatEventDate(early.at(-1)!.date)},`
    : '';
  return (
    `The site stops saying the election of ${formatEventDate(last)} was held and campaigns for the election of ` +
    `${formatEventDate(electionDay)}. Every date of the calendar moves with it (registration closes ` +
    `${formatEventDate(registrationCloses(next).slice(0, 10))},${earlyText} results ` +
    `${formatEventDate(next.resultsDate)}); the outcome and the runoff are cleared. Check each date afterwards.`
  );
}

export function NextElection({
  calendar,
  onStarted,
}: {
  calendar: ElectionCalendar;
  onStarted: (calendar: ElectionCalendar) => void;
}) {
  const start = useStartNextElection();
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const now = new Date();
  const stage = electionStage(calendar, now);
  if (!stage.pollsClosed) return null;

  function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setError('Enter the next Election Day');
    if (date <= campaignToday(now)) return setError(ELECTION_MESSAGES.nextAfterToday);
    setError(undefined);
    setConfirming(true);
  }

  async function onConfirm() {
    setBusy(true);
    try {
      const saved = await start(date);
      setConfirming(false);
      setDate('');
      onStarted(saved.calendar);
      toast.success('The next election is started', {
        description: `The site campaigns for ${formatEventDate(date)}. Check each date below.`,
      });
    } catch (err) {
      setConfirming(false);
      if (err instanceof ApiError && err.status === 400)
        setError(messageOf(err, ELECTION_MESSAGES.nextAfterToday));
      toast.error('Failed to start the next election', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-labelledby="next-election-heading">
      <h3 id="next-election-heading">Start the next election</h3>
      <p className="muted">
        {`The election of ${formatEventDate(stage.dates.electionDay.date)} is over. When the next one is set, give its Election Day: every date of the calendar moves to it and the site campaigns for it.`}
      </p>
      <TextField
        id="next-election-day"
        label="Next Election Day"
        type="date"
        value={date}
        required
        error={error}
        onChange={(e) => setDate(e.target.value)}
      />
      <div>
        <button type="submit" className="btn btn--primary">
          Start the next election
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Start the election of ${date ? formatEventDate(date) : ''}?`}
        message={date ? nextElectionMessage(calendar, date, now) : ''}
        confirmLabel="Start the next election"
        busy={busy}
        onConfirm={() => void onConfirm()}
        onCancel={() => setConfirming(false)}
      />
    </form>
  );
}
