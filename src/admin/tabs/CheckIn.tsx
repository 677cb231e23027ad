import { toast } from 'sonner';
import { failureDescription } from '../forms/errors.ts';

/*
 * What an event's two people dialogs share (EventRsvps: the RSVPs; EventShifts: each slot's people): how they are
 * opened, and check-in at the door with its undo.
 */

/** The props of an event's people dialog (the Events tab opens it). */
export interface EventPeopleDialogProps {
  eventId: number;
  title: string;
  canEdit: boolean;
  onClose: () => void;
}

/** A person as check-in reads them. */
interface Checkable {
  id: string;
  name: string;
  checkedInAt: string | null;
}

/**
 * Checks a person in, or undoes it: `write` saves the new state, and a toast says what happened. `setBusy` names the
 * person while it runs (their buttons ignore presses).
 */
export async function toggleCheckIn(
  p: Checkable,
  write: (checkedIn: boolean) => Promise<unknown>,
  setBusy: (id: string | null) => void,
): Promise<void> {
  setBusy(p.id);
  try {
    await write(!p.checkedInAt);
    toast.success(p.checkedInAt ? `Check-in undone: ${p.name}` : `Checked in: ${p.name}`);
  } catch (err) {
    toast.error('Failed to update check-in', { description: failureDescription(err, 'Please try again.') });
  } finally {
    setBusy(null);
  }
}

/** A person's check-in button (large, for a phone at the door): pressed once they are in, a press then undoes it. */
export function CheckInButton({ p, busy, onToggle }: { p: Checkable; busy: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      className={`btn ${p.checkedInAt ? 'btn--secondary' : 'btn--primary'} checkin-button`}
      aria-pressed={Boolean(p.checkedInAt)}
      aria-disabled={busy || undefined}
      onClick={() => !busy && onToggle()}
    >
      {p.checkedInAt ? 'Undo check-in' : 'Check in'}
      <span className="sr-only"> {p.name}</span>
    </button>
  );
}
