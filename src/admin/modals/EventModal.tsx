import { toast } from 'sonner';
import { EVENT_TYPES, EventInputSchema, type EventType } from '../../lib/schemas/event.ts';
import { islandUi } from '../../content/ui.ts';
import { useCreateEvent } from '../api/create-event.ts';
import { useUpdateEvent } from '../api/update-event.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { TranslationBadge } from '../components/TranslationBadge.tsx';
import { CheckboxField, SelectField, TextArea, TextField } from '../components/Field.tsx';
import { eventPayload, type EventForm } from '../forms/event-form.ts';
import { failureDescription, serverFieldErrors } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';
import { clearDraft, isDirty, useDraft } from '../forms/use-draft.ts';
import { DraftNotice } from '../components/DraftNotice.tsx';

const TYPE_OPTIONS = EVENT_TYPES.map((t) => ({ value: t, label: islandUi.eventTypeLabels[t] }));
const FALLBACK = 'Please check your input and try again.';

export function EventModal({ initial, onClose }: { initial: EventForm; onClose: () => void }) {
  const { values: f, set, setValues, errors, setErrors, validate } = useFormState(initial);
  const draftKey = `event.${initial.id}`;
  const dirty = isDirty(f, initial);
  const draft = useDraft(draftKey, f, initial, dirty);
  const create = useCreateEvent();
  const update = useUpdateEvent();
  const isNew = f.id === 0;
  const failTitle = isNew ? 'Failed to create event' : 'Failed to update event';
  const { busy, onSubmit } = useSubmit({
    check: () => validate(EventInputSchema, eventPayload(f), failTitle, FALLBACK),
    save: () => (isNew ? create(eventPayload(f)) : update(f.id, eventPayload(f))),
    success: isNew ? 'Event created successfully!' : 'Event updated successfully!',
    onError: (err) => {
      setErrors(serverFieldErrors(err));
      toast.error(failTitle, { description: failureDescription(err, FALLBACK) });
    },
    onClose: () => {
      clearDraft(draftKey);
      onClose();
    },
    setErrors,
  });

  return (
    <FormDialog
      id="event-form"
      size="lg"
      title={isNew ? 'Add Event' : 'Edit Event'}
      submitLabel={isNew ? 'Create Event' : 'Update Event'}
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
      dirty={dirty}
      onDiscard={() => clearDraft(draftKey)}
    >
      <DraftNotice draft={draft} onRestore={setValues} onDiscard={() => clearDraft(draftKey)} />
      <TextField
        id="event-title"
        label="Title"
        required
        value={f.title}
        error={errors.title}
        onChange={(e) => set('title', e.target.value)}
        className="span-2"
        data-autofocus
      />
      <SelectField
        id="event-type"
        label="Event type"
        options={TYPE_OPTIONS}
        value={f.eventType}
        onChange={(e) => set('eventType', e.target.value as EventType)}
      />
      <TextField
        id="event-location"
        label="Location"
        required
        value={f.location}
        error={errors.location}
        onChange={(e) => set('location', e.target.value)}
      />
      <TextField
        id="event-date"
        label="Date"
        type="date"
        required
        value={f.eventDate}
        error={errors.eventDate}
        onChange={(e) => set('eventDate', e.target.value)}
      />
      <div className="form-row">
        <TextField
          id="event-start"
          label="Start time"
          type="time"
          required
          value={f.startTime}
          error={errors.startTime}
          onChange={(e) => set('startTime', e.target.value)}
        />
        <TextField
          id="event-end"
          label="End time"
          type="time"
          value={f.endTime}
          error={errors.endTime}
          onChange={(e) => set('endTime', e.target.value)}
        />
      </div>
      <TextArea
        id="event-description"
        label="Description"
        rows={4}
        value={f.description}
        error={errors.description}
        onChange={(e) => set('description', e.target.value)}
        className="span-2"
      />
      <TextField
        id="event-max"
        label="Max attendees"
        type="number"
        min={1}
        inputMode="numeric"
        value={f.maxAttendees}
        error={errors.maxAttendees}
        hint="Leave empty for unlimited."
        onChange={(e) => set('maxAttendees', e.target.value)}
      />
      <TextField
        id="event-contact"
        label="Contact email"
        type="email"
        value={f.contactEmail}
        error={errors.contactEmail}
        onChange={(e) => set('contactEmail', e.target.value)}
      />
      <CheckboxField
        id="event-public"
        label="Public (shown on the website)"
        checked={f.isPublic}
        onChange={(e) => set('isPublic', e.target.checked)}
      />
      <CheckboxField
        id="event-registration"
        label="Registration required"
        checked={f.registrationRequired}
        onChange={(e) => set('registrationRequired', e.target.checked)}
      />
      <TextField
        id="event-registration-url"
        label="Registration URL"
        type="url"
        value={f.registrationUrl}
        error={errors.registrationUrl}
        onChange={(e) => set('registrationUrl', e.target.value)}
        className="span-2"
      />
      <TextArea
        id="event-notes"
        label="Internal notes"
        rows={2}
        value={f.notes}
        error={errors.notes}
        onChange={(e) => set('notes', e.target.value)}
        className="span-2"
      />
      <fieldset className="span-2 form-grid translation-fieldset">
        <legend>
          Spanish version (optional) <TranslationBadge lang="es" status={f.esLoaded.status} />
        </legend>
        {f.esLoaded.status === 'stale' ? (
          <p className="alert alert--warning span-2" role="status">
            The English title or description changed after this Spanish version was made. Update the Spanish,
            or tick “Mark as up to date” if it still says the same.
          </p>
        ) : null}
        <TextField
          id="event-es-title"
          label="Spanish title"
          lang="es"
          value={f.esTitle}
          error={errors['translations.es.title'] ?? errors.translations}
          hint="Leave both Spanish fields empty for no Spanish version."
          onChange={(e) => set('esTitle', e.target.value)}
          className="span-2"
        />
        <TextArea
          id="event-es-description"
          label="Spanish description"
          lang="es"
          rows={3}
          value={f.esDescription}
          error={errors['translations.es.description']}
          onChange={(e) => set('esDescription', e.target.value)}
          className="span-2"
        />
        {f.esLoaded.status === 'stale' ? (
          <CheckboxField
            id="event-es-up-to-date"
            label="Mark as up to date"
            checked={f.esUpToDate}
            onChange={(e) => set('esUpToDate', e.target.checked)}
            className="span-2"
          />
        ) : null}
      </fieldset>
    </FormDialog>
  );
}
