import { diffWords } from 'diff';
import { useState } from 'react';
import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import type { RevisionSummary } from '../../lib/schemas/history.ts';
import { REVISION_ACTIONS, type HistoryKind } from '../../lib/schemas/history-labels.ts';
import { REVISIONS_PAGE_SIZE, useRestoreRevision, useRevision, useRevisions } from '../api/revisions.ts';
import { Pager } from '../components/Pager.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { ListState } from '../components/ListState.tsx';
import { formatDateTime } from '../forms/datetime.ts';
import { readableText } from '../forms/readable-html.ts';

/** Field labels of the diff; fields not named here are shown by their key. */
const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  slug: 'Slug',
  content: 'Content',
  excerpt: 'Excerpt',
  imageUrl: 'Image',
  author: 'Author',
  category: 'Category',
  isPublished: 'Published',
  publishedAt: 'Publish time',
  description: 'Description',
  location: 'Location',
  eventDate: 'Date',
  startTime: 'Start time',
  endTime: 'End time',
  eventType: 'Type',
  isPublic: 'Public',
  maxAttendees: 'Max attendees',
  registrationRequired: 'Registration required',
  registrationUrl: 'Registration URL',
  contactEmail: 'Contact email',
  notes: 'Notes',
};
const HIDDEN = new Set(['id', 'createdAt', 'updatedAt']);

const show = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
/** Fields holding a time (ISO), shown as the dashboard shows times. */
const TIMES = new Set(['publishedAt']);
/**
 * A field as a reader sees it: an article's content as its text (headings, paragraphs, bullets; never
 * its HTML), yes/no for switches, times in the campaign's format.
 */
const readable = (field: string, v: unknown) => {
  if (field === 'content') return readableText(show(v));
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (TIMES.has(field) && typeof v === 'string' && v) return formatDateTime(v);
  return show(v);
};

/** Inline word diff of each field that differs: removed text struck through, added text underlined. */
function FieldDiff({
  before,
  after,
}: {
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
}) {
  const fields = Object.keys(after).filter(
    (k) => !HIDDEN.has(k) && (!before || JSON.stringify(before[k]) !== JSON.stringify(after[k])),
  );
  if (fields.length === 0) return <p className="muted">No field differs from the version before.</p>;
  return (
    <dl className="diff">
      {fields.map((f) => (
        <div key={f} className="diff__field">
          <dt>{FIELD_LABELS[f] ?? f}</dt>
          <dd>
            <pre className="diff__text">
              {diffWords(readable(f, before?.[f]), readable(f, after[f])).map((part, i) =>
                part.added ? (
                  <ins key={i}>{part.value}</ins>
                ) : part.removed ? (
                  <del key={i}>{part.value}</del>
                ) : (
                  <span key={i}>{part.value}</span>
                ),
              )}
            </pre>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function describe(r: RevisionSummary): string {
  const what =
    r.action === 'restore' && r.restoredFrom
      ? `Restored version ${r.restoredFrom}`
      : REVISION_ACTIONS[r.action];
  return `${what}${r.actorName ? ` by ${r.actorName}` : ''}`;
}

/**
 * An article's or event's history (docs/decisions/161-content-and-editor.md): every kept version with who,
 * when and what changed; selecting one shows its differences from the version
 * before; Restore brings it back as a new version (editors and admins).
 */
export function RevisionsDialog({
  kind,
  id,
  title,
  canRestore,
  onClose,
}: {
  kind: HistoryKind;
  id: number;
  title: string;
  canRestore: boolean;
  onClose: () => void;
}) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useRevisions(kind, id, page);
  const revisions = data?.revisions ?? [];
  const [selected, setSelected] = useState<number | null>(null);
  const current = selected ?? revisions[0]?.n ?? null;
  // Versions are numbered 1, 2, ... without gaps: the one before the oldest on this page is on the next.
  const previousN =
    revisions.find((r) => current !== null && r.n < current)?.n ??
    (current !== null && current > 1 ? current - 1 : null);
  const shown = useRevision(kind, id, current);
  const previous = useRevision(kind, id, previousN);
  const restore = useRestoreRevision(kind, id);
  const [busy, setBusy] = useState(false);

  /**
   * Restore is one click, and undoable: the toast offers Undo, which restores the version that was
   * current just before (itself a new version, so nothing is ever lost either way).
   */
  async function onRestore(n: number, undoing = false) {
    const latest = revisions[0]?.n;
    setBusy(true);
    try {
      const rev = await restore(n);
      setSelected(rev.n);
      if (undoing) {
        toast.success('Restore undone', { description: `Version ${n} is back, saved as version ${rev.n}.` });
        return;
      }
      toast.success(`Version ${n} restored`, {
        description: `Saved as version ${rev.n}.`,
        ...(latest ? { action: { label: 'Undo', onClick: () => void onRestore(latest, true) } } : {}),
      });
    } catch (err) {
      toast.error('Failed to restore version', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} size="lg" title={`History: ${title}`}>
      <ListState isLoading={isLoading} error={error} empty={revisions.length === 0}>
        <div className="history">
          <ol className="history__list" aria-label="Versions, newest first">
            {revisions.map((r) => (
              <li
                key={r.n}
                className={r.n === current ? 'history__item history__item--current' : 'history__item'}
              >
                <button
                  type="button"
                  className="link-button"
                  aria-current={r.n === current ? 'true' : undefined}
                  onClick={() => setSelected(r.n)}
                >
                  Version {r.n}
                </button>
                <span className="cell-sub">
                  {describe(r)} · <time dateTime={r.at}>{formatDateTime(r.at)}</time>
                </span>
                {r.changed.length ? (
                  <span className="cell-sub">
                    Changed: {r.changed.map((f) => FIELD_LABELS[f] ?? f).join(', ')}
                  </span>
                ) : null}
                {canRestore && r.n !== revisions[0]?.n ? (
                  <button
                    type="button"
                    className="btn btn--secondary btn--sm"
                    aria-disabled={busy}
                    onClick={() => void (busy ? undefined : onRestore(r.n))}
                  >
                    Restore<span className="sr-only"> version {r.n}</span>
                  </button>
                ) : null}
              </li>
            ))}
          </ol>
          <Pager
            label="Versions"
            page={page}
            pageSize={REVISIONS_PAGE_SIZE}
            total={data?.total ?? 0}
            onPage={setPage}
          />
          <section className="history__diff" aria-labelledby="diff-heading" aria-live="polite">
            <h3 id="diff-heading">
              {current ? `Version ${current}` : ''}
              {previousN ? ` compared with version ${previousN}` : ' (first kept version)'}
            </h3>
            {shown.data ? (
              <FieldDiff
                before={previousN ? (previous.data?.revision.snapshot ?? null) : null}
                after={shown.data.revision.snapshot}
              />
            ) : (
              <p role="status" className="muted">
                Loading…
              </p>
            )}
          </section>
        </div>
      </ListState>
    </Dialog>
  );
}
