import { useEffect, useState } from 'react';
import { messageOf } from '../../lib/client/api.ts';
import type { AuditChainReport, AuditVerifyStatus } from '../../lib/schemas/audit.ts';
import { checkNewEntries, startFullVerification, useFullVerification } from '../api/activity.ts';
import { formatDateTime } from '../forms/datetime.ts';

/** Steps of the incremental check one click may take (each verifies up to 16 entries). */
const MAX_STEPS = 400;
/** How long a started full verification may take to appear (a background function starts within seconds). */
const APPEAR_MS = 60_000;

const count = (n: number) => n.toLocaleString('en-US');

// docs/decisions/154-audit-trail.md: before anchoredFrom, removal of the newest entries is not ruled out.
const anchoredNote = (r: AuditChainReport) =>
  r.anchoredFrom
    ? ` Removal of entries from the end is checked from entry ${r.anchoredFrom} on (see that entry).`
    : '';

const broken = (r: AuditChainReport) => `The record does not hold at entry ${r.brokenAt}: ${r.reason}.`;

function fullText(full: AuditVerifyStatus | undefined): string {
  if (!full || full.state === 'none') return 'No full verification has run yet.';
  if (full.state === 'done' && full.result) {
    const when = `Full verification of ${formatDateTime(full.finishedAt)} (started by ${full.startedBy})`;
    return full.result.ok
      ? `${when}: all ${count(full.result.entries)} entries check out: none was changed or removed.${anchoredNote(full.result)}`
      : `${when}: ${broken(full.result)}`;
  }
  const read = `${count(full.checked ?? 0)} of ${count(full.total ?? 0)} entries read`;
  const rest = full.phase === 'chain' ? '' : ', checking anchors and lists';
  return full.state === 'stalled'
    ? `Full verification paused at ${read}${rest}: it goes on by itself within minutes, or resume it now.`
    : `Full verification running: ${read}${rest}…`;
}

/**
 * The Activity tab's integrity checks (docs/decisions/154-audit-trail.md): "Check integrity" verifies
 * the entries written since the last check (a few requests, each bounded) and that none was removed from
 * the end; "Verify every entry" reads the whole record again in the background, with its progress here.
 */
export function ActivityIntegrity() {
  const [check, setCheck] = useState('');
  const [checking, setChecking] = useState(false);
  const [asked, setAsked] = useState<number | null>(null);
  const { data, mutate } = useFullVerification();
  const full = data?.full;
  const running = full?.state === 'running' || full?.state === 'stalled';
  // Until the job just asked for shows up (a background function starts within seconds), keep looking.
  const waiting = asked !== null && !running && Date.parse(full?.startedAt ?? '') < asked - 5_000;

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (asked === null || Date.now() - asked > APPEAR_MS) setAsked(null);
      else void mutate();
    }, 2000);
    return () => clearInterval(timer);
  }, [waiting, asked, mutate]);

  async function checkNew() {
    if (checking) return;
    setChecking(true);
    setCheck('Checking the newest entries…');
    try {
      for (let step = 0; step < MAX_STEPS; step++) {
        const r = await checkNewEntries();
        void mutate({ full: r.full }, { revalidate: false });
        if (!r.ok) {
          setCheck(broken(r));
          return;
        }
        if (r.pending === 0) {
          setCheck(
            `All ${count(r.entries)} entries are checked: the newest just now, the others when they were new; none was removed from the end.${anchoredNote(r)} A change to an older entry is found by the full verification.`,
          );
          return;
        }
        setCheck(`Checking the newest entries: ${count(r.pending)} left…`);
      }
      setCheck('Many entries are still waiting: run “Check integrity” again.');
    } catch (err) {
      setCheck(messageOf(err, 'Could not check the record.'));
    } finally {
      setChecking(false);
    }
  }

  function verifyAll() {
    if (running) return;
    setAsked(Date.now());
    startFullVerification()
      .catch((err: unknown) => setCheck(messageOf(err, 'Could not start the full verification.')))
      .finally(() => void mutate());
    void mutate();
  }

  return (
    <div className="integrity">
      <div className="row-actions">
        <button
          type="button"
          className="btn btn--secondary"
          aria-disabled={checking || undefined}
          onClick={() => void checkNew()}
        >
          Check integrity
        </button>
        <button
          type="button"
          className="btn btn--secondary"
          aria-disabled={running || undefined}
          onClick={verifyAll}
        >
          {full?.state === 'stalled' ? 'Resume full verification' : 'Verify every entry'}
        </button>
      </div>
      <p className="muted" role="status">
        {check}
      </p>
      <p className="muted" role="status">
        {waiting ? 'Starting the full verification…' : fullText(full)}
      </p>
      {running ? (
        <progress
          className="integrity__progress"
          aria-label="Full verification"
          max={Math.max(1, full.total ?? 0)}
          value={Math.min(full.checked ?? 0, full.total ?? 0)}
        />
      ) : null}
    </div>
  );
}
