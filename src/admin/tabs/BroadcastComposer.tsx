import { lazy, Suspense, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, messageOf } from '../../lib/client/api.ts';
import type { Lang } from '../../lib/lang.ts';
import {
  ATTENDEE_STATUSES,
  AUDIENCE_KINDS,
  AUDIENCE_LABELS,
  type AudienceKind,
} from '../../lib/schemas/broadcast-rules.ts';
import type { BroadcastChannel, BroadcastInput } from '../../lib/schemas/broadcasts.ts';
import { countSegments } from '../../lib/sms-segments.ts';
import { fillMergeFields } from '../../lib/merge-fields.ts';
import { compliantText } from '../../lib/text-compliance.ts';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';
import { useBroadcastActions, useBroadcasts } from '../api/broadcasts.ts';
import { useEvents } from '../api/get-events.ts';
import { CheckboxField, SelectField, TextArea, TextField } from '../components/Field.tsx';

const ArticleEditor = lazy(() => import('../editor/ArticleEditor.tsx'));

/*
 * Composing a broadcast (docs/decisions/152-broadcasts.md): a text with a live count of characters
 * and segments as it will be sent (the campaign's name and the opt-out line added, `{firstName}` as
 * the fallback), or an email in the article editor; both languages; the audience and its filters.
 */

type Audience = BroadcastInput['audience'];
type AttendeeStatus = (typeof ATTENDEE_STATUSES)[number];

const ATTENDEE_LABELS: Record<AttendeeStatus, string> = {
  going: 'Going',
  waitlisted: 'Waitlisted',
  checked_in: 'Checked in',
};

/** Which lists agreed to which channel (the server refuses the others too). */
const KINDS_FOR: Record<BroadcastChannel, AudienceKind[]> = {
  text: AUDIENCE_KINDS.filter((k) => k !== 'newsletter_subscribers'),
  email: AUDIENCE_KINDS.filter((k) => k !== 'text_subscribers'),
};

export function emptyInput(channel: BroadcastChannel): BroadcastInput {
  const base = { name: '', channel, audience: { kind: KINDS_FOR[channel][0]! } };
  return channel === 'text'
    ? { ...base, text: { body: '', bodyEs: '', firstNameFallback: 'friend' } }
    : {
        ...base,
        email: {
          subject: '',
          subjectEs: '',
          preview: '',
          previewEs: '',
          html: '',
          htmlEs: '',
          firstNameFallback: 'friend',
        },
      };
}

/** The live counter: what the text costs as sent to someone without a first name. */
export function SegmentCounter({
  id,
  body,
  fallback,
  lang,
}: {
  id: string;
  body: string;
  fallback: string;
  lang: Lang;
}) {
  if (!body.trim()) return null;
  const sent = compliantText(fillMergeFields(body, { firstName: '' }, fallback, 'text'), lang);
  const c = countSegments(sent);
  const unicode = [...new Set(c.unicode)];
  return (
    <div id={id} className="segment-counter" aria-live="polite">
      <p>
        <strong>
          {c.characters} characters, {c.segments} segment{c.segments === 1 ? '' : 's'}
        </strong>{' '}
        (
        {c.encoding === 'GSM-7'
          ? 'GSM-7: 160 in one segment, 153 each after'
          : 'Unicode: 70 in one segment, 67 each after'}
        )
      </p>
      {unicode.length ? (
        <p className="muted">
          Unicode because of: {unicode.map((u) => `“${u}”`).join(' ')}. Without them the text would be GSM-7.
          An emoji counts as 2 characters.
        </p>
      ) : null}
      <p className="muted">As sent: “{sent}”</p>
    </div>
  );
}

function errorsOf(err: unknown): Record<string, string> {
  return err instanceof ApiError && err.status === 400 ? err.fields : {};
}

export function BroadcastComposer({
  id,
  initial,
  onSaved,
  onCancel,
}: {
  id: number | null;
  initial: BroadcastInput;
  onSaved: (id: number) => void;
  onCancel: () => void;
}) {
  const [f, setF] = useState<BroadcastInput>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const actions = useBroadcastActions();
  const events = useEvents(1, 100);
  const a = f.audience;
  // The audiences that exist yet (voters with a plan to vote wait for the pledge: audiences.ts).
  const available = useBroadcasts().data?.audiences ?? [];
  const kinds = KINDS_FOR[f.channel].filter((k) => available.includes(k) || k === a.kind);
  const setAudience = (patch: Partial<Audience>) => setF({ ...f, audience: { ...a, ...patch } });
  const text = f.text;
  const email = f.email;
  const prefix = `broadcast-${f.channel}`;

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (uploading) return;
    setBusy(true);
    setErrors({});
    try {
      const saved = id === null ? await actions.create(f) : (await actions.update(id, f), id);
      toast.success('Draft saved', { description: f.name });
      onSaved(saved);
    } catch (err) {
      setErrors(errorsOf(err));
      toast.error('Failed to save the draft', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  const statuses = a.attendeeStatuses ?? [];
  return (
    <form className="stack broadcast-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Compose">
      <TextField
        id={`${prefix}-name`}
        label="Name (staff only)"
        required
        value={f.name}
        error={errors.name}
        onChange={(e) => setF({ ...f, name: e.target.value })}
      />
      <fieldset className="stack">
        <legend>Audience</legend>
        <SelectField
          id={`${prefix}-kind`}
          label="Who"
          value={a.kind}
          error={errors['audience.kind']}
          options={kinds.map((k) => ({ value: k, label: AUDIENCE_LABELS[k] }))}
          onChange={(e) => setAudience({ kind: e.target.value as AudienceKind })}
        />
        {a.kind === 'event_attendees' ? (
          <>
            <SelectField
              id={`${prefix}-event`}
              label="Event"
              value={a.eventId ? String(a.eventId) : ''}
              error={errors['audience.eventId']}
              options={[
                { value: '', label: 'Choose an event' },
                ...(events.data?.events ?? []).map((ev) => ({
                  value: String(ev.id),
                  label: `${ev.title} (${ev.eventDate})`,
                })),
              ]}
              onChange={(e) => setAudience({ eventId: e.target.value ? Number(e.target.value) : undefined })}
            />
            <div role="group" aria-label="Attendees">
              {ATTENDEE_STATUSES.map((s) => (
                <CheckboxField
                  key={s}
                  id={`${prefix}-att-${s}`}
                  label={ATTENDEE_LABELS[s]}
                  checked={statuses.includes(s)}
                  onChange={(e) =>
                    setAudience({
                      attendeeStatuses: e.target.checked ? [...statuses, s] : statuses.filter((x) => x !== s),
                    })
                  }
                />
              ))}
            </div>
          </>
        ) : null}
        <SelectField
          id={`${prefix}-lang`}
          label="Language"
          value={a.lang ?? ''}
          options={[
            { value: '', label: 'Everyone' },
            { value: 'en', label: 'English speakers' },
            { value: 'es', label: 'Spanish speakers' },
          ]}
          onChange={(e) => setAudience({ lang: (e.target.value || undefined) as Lang | undefined })}
        />
        <TextField
          id={`${prefix}-place`}
          label="City or ZIP (optional)"
          value={a.place ?? ''}
          error={errors['audience.place']}
          hint="Only people who gave one: text subscribers give neither."
          onChange={(e) => setAudience({ place: e.target.value || undefined })}
        />
        <TextField
          id={`${prefix}-source`}
          label="Sign-up page or refcode (optional)"
          value={a.source ?? ''}
          error={errors['audience.source']}
          hint="Part of the page they signed up on, such as /volunteer or ref=doors."
          onChange={(e) => setAudience({ source: e.target.value || undefined })}
        />
        <TextField
          id={`${prefix}-from`}
          label="Signed up from (optional)"
          type="date"
          value={a.signedUpFrom ?? ''}
          error={errors['audience.signedUpFrom']}
          onChange={(e) => setAudience({ signedUpFrom: e.target.value || undefined })}
        />
        <TextField
          id={`${prefix}-to`}
          label="Signed up until (optional)"
          type="date"
          value={a.signedUpTo ?? ''}
          error={errors['audience.signedUpTo']}
          onChange={(e) => setAudience({ signedUpTo: e.target.value || undefined })}
        />
      </fieldset>
      {text ? (
        <fieldset className="stack">
          <legend>Text</legend>
          <TextArea
            id={`${prefix}-body`}
            label="Text (English)"
            rows={4}
            required
            value={text.body}
            error={errors['text.body']}
            hint="{firstName} is replaced by each person’s first name. The campaign’s name and “Reply STOP to opt out.” are added when missing."
            aria-describedby={`${prefix}-body-hint ${prefix}-body-count`}
            onChange={(e) => setF({ ...f, text: { ...text, body: e.target.value } })}
          />
          <SegmentCounter
            id={`${prefix}-body-count`}
            body={text.body}
            fallback={text.firstNameFallback}
            lang="en"
          />
          <TextArea
            id={`${prefix}-body-es`}
            label="Text (Spanish, for Spanish speakers; empty: they get the English)"
            rows={4}
            value={text.bodyEs}
            error={errors['text.bodyEs']}
            aria-describedby={`${prefix}-body-es-count`}
            onChange={(e) => setF({ ...f, text: { ...text, bodyEs: e.target.value } })}
          />
          <SegmentCounter
            id={`${prefix}-body-es-count`}
            body={text.bodyEs}
            fallback={text.firstNameFallback}
            lang="es"
          />
          <TextField
            id={`${prefix}-fallback`}
            label="Instead of a missing first name"
            value={text.firstNameFallback}
            error={errors['text.firstNameFallback']}
            onChange={(e) => setF({ ...f, text: { ...text, firstNameFallback: e.target.value } })}
          />
        </fieldset>
      ) : null}
      {email ? (
        <fieldset className="stack">
          <legend>Email</legend>
          <TextField
            id={`${prefix}-subject`}
            label="Subject (English)"
            required
            value={email.subject}
            error={errors['email.subject']}
            onChange={(e) => setF({ ...f, email: { ...email, subject: e.target.value } })}
          />
          <TextField
            id={`${prefix}-preview`}
            label="Preview text (English, shown after the subject in the inbox)"
            value={email.preview}
            error={errors['email.preview']}
            onChange={(e) => setF({ ...f, email: { ...email, preview: e.target.value } })}
          />
          <Suspense fallback={<p className="muted">Loading the editor…</p>}>
            <ArticleEditor
              id={`${prefix}-html`}
              label="Email (English, required)"
              value={email.html}
              error={errors['email.html']}
              onChange={(html) => setF((cur) => ({ ...cur, email: { ...cur.email!, html } }))}
              onUploading={setUploading}
            />
          </Suspense>
          <TextField
            id={`${prefix}-subject-es`}
            label="Subject (Spanish)"
            value={email.subjectEs}
            error={errors['email.subjectEs']}
            onChange={(e) => setF({ ...f, email: { ...email, subjectEs: e.target.value } })}
          />
          <TextField
            id={`${prefix}-preview-es`}
            label="Preview text (Spanish)"
            value={email.previewEs}
            error={errors['email.previewEs']}
            onChange={(e) => setF({ ...f, email: { ...email, previewEs: e.target.value } })}
          />
          <Suspense fallback={<p className="muted">Loading the editor…</p>}>
            <ArticleEditor
              id={`${prefix}-html-es`}
              label="Email (Spanish, for Spanish speakers; empty: they get the English)"
              value={email.htmlEs}
              error={errors['email.htmlEs']}
              onChange={(html) => setF((cur) => ({ ...cur, email: { ...cur.email!, htmlEs: html } }))}
              onUploading={setUploading}
            />
          </Suspense>
          <p className="muted">
            Every email gets the paid-for line, the committee’s address and an unsubscribe link, in its
            language.
          </p>
        </fieldset>
      ) : null}
      <div className="row-actions">
        <SubmitButton busy={busy} label="Save draft" busyLabel="Saving..." className="btn btn--primary" />
        <button type="button" className="btn btn--secondary" onClick={onCancel}>
          Close
        </button>
      </div>
    </form>
  );
}
