import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { EVENT_TYPES, EVENT_TYPE_LABELS, EventInputSchema, type EventType } from '../../lib/schemas/event.ts';
import { useCreateEvent } from '../api/create-event.ts';
import { useUpdateEvent } from '../api/update-event.ts';
import { Dialog } from '../components/Dialog.tsx';
import { CheckboxField, SelectField, TextArea, TextField } from '../components/Field.tsx';
import { eventPayload, type EventForm } from '../forms/event-form.ts';
import { failureDescription, serverFieldErrors, zodFieldErrors } from '../forms/errors.ts';

const TYPE_OPTIONS = EVENT_TYPES.map((t) => ({ value: t, label: EVENT_TYPE_LABELS[t] }));

export function EventModal({ initial, onClose }: { initial: EventForm; onClose: () => void }) {
  const [f, setF] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateEvent();
  const update = useUpdateEvent();
  const isNew = f.id === 0;
  const failTitle = isNew ? 'Failed to create event' : 'Failed to update event';
  const set = <K extends keyof EventForm>(k: K, v: EventForm[K]) => setF((prev) => ({ ...prev, [k]: v }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // aria-disabled, not disabled, while saving: the button keeps focus.
    if (busy) return;
    const payload = eventPayload(f);
    const parsed = EventInputSchema.safeParse(payload);
    if (!parsed.success) {
      const fieldErrors = zodFieldErrors(parsed.error);
      setErrors(fieldErrors);
      toast.error(failTitle, {
        description: Object.values(fieldErrors)[0] ?? 'Please check your input and try again.',
      });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      if (isNew) {
        await create(payload);
        toast.success('Event created successfully!');
      } else {
        await update(f.id, payload);
        toast.success('Event updated successfully!');
      }
      onClose();
    } catch (err) {
      setErrors(serverFieldErrors(err));
      toast.error(failTitle, {
        description: failureDescription(err, 'Please check your input and try again.'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={isNew ? 'Add Event' : 'Edit Event'}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="event-form" className="btn btn--primary" aria-disabled={busy}>
            {busy ? 'Saving...' : isNew ? 'Create Event' : 'Update Event'}
          </button>
        </>
      }
    >
      <form id="event-form" onSubmit={(e) => void onSubmit(e)} noValidate className="form-grid">
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
      </form>
    </Dialog>
  );
}
