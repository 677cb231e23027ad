import { useId, useState } from 'react';
import { toast } from 'sonner';
import type { SequenceConfig, SequenceStep } from '../../lib/schemas/shift-sequence.ts';
import { send } from '../api/shared.ts';
import { failureDescription } from '../forms/errors.ts';

/*
 * The confirm-and-remind steps of an event (docs/decisions/181-shifts.md, "The sequence" and "The event without
 * slots"), on or off, in the event's Shifts dialog: saved alone (`PUT {sequence}`), the slots kept. An event without
 * slots has them all off until staff turn them on; then its RSVPs get them, and its RSVP reminder gives way.
 */

const STEPS: readonly [SequenceStep, string][] = [
  ['dayBefore', 'The day before: a text and an email asking to confirm or cancel'],
  ['morning', 'On the day, in the morning: an email'],
  ['soon', 'Shortly before the start: a text'],
  ['followUp', 'After the end: a "how did it go?" email'],
];

export function SequenceSteps({
  path,
  sequence,
  hasSlots,
  canEdit,
  onSaved,
}: {
  path: string;
  sequence: SequenceConfig;
  hasSlots: boolean;
  canEdit: boolean;
  onSaved: () => Promise<unknown>;
}) {
  const id = useId();
  const [draft, setDraft] = useState(sequence);
  async function save() {
    try {
      await send('PUT', path, { sequence: draft });
      await onSaved();
      toast.success('Reminder steps saved');
    } catch (err) {
      toast.error('Failed to save the reminder steps', {
        description: failureDescription(err, 'Please try again.'),
      });
    }
  }
  return (
    <form
      aria-label="Confirm and remind"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3>Confirm and remind</h3>
      <p className="field__hint">
        {hasSlots
          ? 'Each step goes to everyone on each shift.'
          : 'This event has no shifts: the steps go to everyone going. While the day-before step is on, the RSVP reminder is not sent (one day-before message, not two).'}
      </p>
      {STEPS.map(([step, label]) => (
        <div className="field" key={step}>
          <label htmlFor={`${id}-${step}`}>
            <input
              id={`${id}-${step}`}
              type="checkbox"
              disabled={!canEdit}
              checked={draft[step].on}
              onChange={(e) => setDraft({ ...draft, [step]: { ...draft[step], on: e.target.checked } })}
            />{' '}
            {label}
          </label>
        </div>
      ))}
      {canEdit ? (
        <button type="submit" className="btn btn--primary">
          Save the reminder steps
        </button>
      ) : null}
    </form>
  );
}
