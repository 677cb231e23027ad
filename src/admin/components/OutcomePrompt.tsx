import { formatEventDate } from '../../lib/campaign-time.ts';
import { electionStage } from '../../lib/election-stage.ts';
import { useElectionCalendar } from '../api/election.ts';

/**
 * Admins only, above the tabs: once an election's results date has come and no outcome is set, the site makes no
 * claim either way (docs/decisions/157-election-calendar.md, "One voice at every stage"), so the dashboard asks
 * for it: won, lost, a runoff or the campaign ended, or the next election's dates. Nothing shows before the
 * results date, once an outcome is set, or while the calendar cannot be read (the Election tab says why).
 */
export function OutcomePrompt({ onOpen, now = new Date() }: { onOpen: () => void; now?: Date }) {
  const { data } = useElectionCalendar();
  if (!data) return null;
  const stage = electionStage(data.calendar, now);
  if (stage.kind !== 'results' || stage.outcome !== 'none') return null;
  const day = formatEventDate(stage.dates.electionDay.date);
  return (
    <section className="alert alert--warning dash-alerts stack" aria-labelledby="outcome-prompt-heading">
      <h2 id="outcome-prompt-heading" className="launch-checklist__heading">
        Set the outcome of the {stage.round === 'runoff' ? 'runoff' : 'election'} of {day}
      </h2>
      <p>
        The results are in, and until you say how it went the site thanks voters and makes no claim either
        way. Choose won, lost, a runoff or campaign ended in the Election tab; if another election is ahead,
        start it there (Start the next election) and the site campaigns for it.
      </p>
      <p>
        <button type="button" className="btn btn--primary" onClick={onOpen}>
          Set the outcome
        </button>
      </p>
    </section>
  );
}
