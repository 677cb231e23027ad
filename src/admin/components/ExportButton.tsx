import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../../lib/client/api.ts';
import { formatDateTime } from '../forms/datetime.ts';
import { startExport, useExportJob, type ExportJob } from '../api/exports.ts';

const count = (n: number) => n.toLocaleString('en-US');
/** "1 row", "2 rows". */
const rows = (n: number) => `${count(n)} ${n === 1 ? 'row' : 'rows'}`;

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Export CSV for any staff list (docs/decisions/156-exports.md): starts the export, shows its
 * progress while the background function writes it, then the download links (each valid for a while, for
 * this member only). `source` and `params` name the export (src/lib/server/exports/registry.ts); `label` is
 * what is exported, for screen readers.
 */
export function ExportButton({
  source,
  params,
  label,
  text = 'Export CSV',
}: {
  source: string;
  params: Record<string, string>;
  label: string;
  /** The button's words (default "Export CSV"); screen readers also hear `of {label}`. */
  text?: string;
}) {
  const [jobId, setJobId] = useState<string | null>(null);
  const [started, setStarted] = useState<ExportJob | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { data } = useExportJob(started && started.status !== 'done' ? jobId : null);
  const job = data?.job ?? started;
  const key = JSON.stringify([source, params]);
  // The list the current key names; an export started for another (the list switched while it was being
  // asked for) is dropped when it answers, so no link to another list's file is left beside the button.
  const current = useRef(key);
  current.current = key;
  // Another list or search: the previous export no longer describes what is shown.
  useEffect(() => {
    setJobId(null);
    setStarted(null);
    setError(null);
  }, [key]);

  const working = job?.status === 'queued' || job?.status === 'running';
  const run = async () => {
    if (busy || working) return;
    setBusy(true);
    setError(null);
    const asked = key;
    try {
      const next = await startExport(source, params);
      if (current.current !== asked) return;
      setStarted(next);
      setJobId(next.id);
    } catch (err) {
      if (current.current !== asked) return;
      setError(messageOf(err, 'The export could not be started. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="export">
      <button
        type="button"
        className="btn btn--secondary"
        onClick={() => void run()}
        disabled={busy || working}
      >
        {text}
        <span className="sr-only"> of {label}</span>
      </button>
      <div className="export__status" role="status">
        {error ? <p className="export__error">{error}</p> : null}
        {job && working ? (
          <p>
            Preparing {job.filename}:{' '}
            {job.total !== null ? `${count(job.rows)} of ${rows(job.total)}` : rows(job.rows)}
            <progress
              className="export__progress"
              max={job.total ?? undefined}
              value={job.total !== null ? job.rows : undefined}
              aria-label={`Export of ${label}`}
            />
          </p>
        ) : null}
        {job?.status === 'failed' ? (
          <p className="export__error">{job.error ?? 'The export failed.'}</p>
        ) : null}
        {job?.status === 'done' ? (
          <p>
            {job.downloads.map((d) => (
              <a key={d.url} href={d.url} download={d.filename} className="export__link">
                Download {d.filename}
                <span className="muted">
                  {' '}
                  ({rows(d.rows)}, {size(d.bytes)})
                </span>
              </a>
            ))}
            {job.linksExpireAt ? (
              <span className="muted export__expiry">
                The link works until {formatDateTime(job.linksExpireAt)}; after that, export again.
              </span>
            ) : null}
          </p>
        ) : null}
      </div>
    </div>
  );
}
