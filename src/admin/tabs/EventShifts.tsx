import { useId, useState } from 'react';
import useSWR from 'swr';
import { toast } from 'sonner';
import { queryFetcher } from '../../lib/client/api.ts';
import { formatTime } from '../../lib/campaign-time.ts';
import type { SequenceConfig } from '../../lib/schemas/shift-sequence.ts';
import type { PublicSlot, ShiftSlot } from '../../lib/schemas/shifts.ts';
import { ADMIN_EVENTS, send, useRevalidate } from '../api/shared.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { ExportButton } from '../components/ExportButton.tsx';
import { ListState } from '../components/ListState.tsx';
import { formatDate } from '../forms/datetime.ts';
import { failureDescription } from '../forms/errors.ts';
import { CheckInButton, toggleCheckIn, type EventPeopleDialogProps } from './CheckIn.tsx';
import { SequenceSteps } from './SequenceSteps.tsx';
import { CallDontText } from './ShiftAttendance.tsx';
import { StaffingGrid, type PlanRow } from './StaffingGrid.tsx';

/*
 * An event's shifts (docs/decisions/181-shifts.md): the slots with their places, added and edited here and saved
 * whole; the staffing plan from the election calendar and its grid of places by days, filled / needed, the gaps named; each
 * slot's people with check-in and its undo (large buttons, for a phone at the door).
 */

interface ShiftsView {
  slots: ShiftSlot[];
  places: PublicSlot[];
  sequence: SequenceConfig;
}
interface SlotPeople {
  people: {
    id: string;
    name: string;
    email: string;
    status: 'going' | 'waitlisted';
    position: number | null;
    checkedInAt: string | null;
    /** How the slot went (shift-attendance.ts) and the "call, don't text" flag. */
    attendance?: 'attended' | 'absent' | null;
    callDontText?: boolean;
  }[];
}

const shiftsPath = (eventId: number) => `${ADMIN_EVENTS}/${eventId}/shifts`;
const planPath = (eventId: number) => `/api/admin/shift-plan?event=${eventId}`;

function SlotPeopleList({ eventId, slot, canEdit }: { eventId: number; slot: ShiftSlot; canEdit: boolean }) {
  const path = `${shiftsPath(eventId)}/${slot.id}`;
  const { data, error, isLoading, mutate } = useSWR<SlotPeople, Error>(path, queryFetcher);
  const [busy, setBusy] = useState<string | null>(null);
  const toggle = (p: SlotPeople['people'][number]) =>
    toggleCheckIn(
      p,
      async (on) => {
        await send('PUT', path, { person: p.id, checkedIn: on });
        await mutate();
      },
      setBusy,
    );
  async function noShow(p: SlotPeople['people'][number]) {
    const absent = p.attendance !== 'absent';
    setBusy(p.id);
    try {
      await send('PUT', path, { person: p.id, noShow: absent });
      await mutate();
      toast.success(absent ? `Marked a no-show: ${p.name}` : `No-show undone: ${p.name}`);
    } catch (err) {
      toast.error('Failed to update attendance', {
        description: failureDescription(err, 'Please try again.'),
      });
    } finally {
      setBusy(null);
    }
  }
  return (
    <ListState isLoading={isLoading && !data} error={error} empty={(data?.people.length ?? 0) === 0}>
      <ExportButton
        source="shift_attendees"
        params={{ event: String(eventId), slot: slot.id }}
        label={`the people on ${slot.id}`}
      />
      <ul className="records" aria-label={`People on ${slot.id}`}>
        {(data?.people ?? []).map((p) => (
          <li key={p.id} className="record" data-shift-person={p.email}>
            <div className="record__main">
              <h4 className="record__title">{p.name}</h4>
              <p className="record__text">
                {p.status === 'going' ? 'On the shift' : `Waitlisted #${p.position ?? ''}`} · {p.email}
                {p.checkedInAt ? ' · checked in' : ''}
                {p.attendance === 'absent' ? ' · no-show' : ''}
              </p>
              {p.callDontText ? <CallDontText /> : null}
            </div>
            {canEdit && p.status === 'going' ? (
              <div className="record__actions">
                <CheckInButton p={p} busy={busy === p.id} onToggle={() => void toggle(p)} />
                {p.checkedInAt ? null : (
                  <button
                    type="button"
                    className="btn btn--secondary"
                    aria-pressed={p.attendance === 'absent'}
                    aria-disabled={busy === p.id || undefined}
                    onClick={() => busy !== p.id && void noShow(p)}
                  >
                    {p.attendance === 'absent' ? 'Undo no-show' : 'No-show'}
                    <span className="sr-only"> {p.name}</span>
                  </button>
                )}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </ListState>
  );
}

const blankSlot = (): ShiftSlot => ({
  id: '',
  date: '',
  start: '09:00',
  end: '12:00',
  capacity: 5,
  siteId: null,
  label: '',
});

export function EventShifts({ eventId, title, canEdit, onClose }: EventPeopleDialogProps) {
  const id = useId();
  const revalidate = useRevalidate();
  const view = useSWR<ShiftsView, Error>(shiftsPath(eventId), queryFetcher);
  const plan = useSWR<{ rows: PlanRow[] }, Error>(planPath(eventId), queryFetcher);
  const [draft, setDraft] = useState<ShiftSlot>(blankSlot);
  const [minutes, setMinutes] = useState(180);
  const [needed, setNeeded] = useState(2);
  const [open, setOpen] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<ShiftSlot | null>(null);
  const slots = view.data?.slots ?? [];
  const places = new Map((view.data?.places ?? []).map((p) => [p.id, p]));

  async function refresh() {
    await Promise.all([view.mutate(), plan.mutate(), revalidate(shiftsPath(eventId))]);
  }
  async function save(next: (ShiftSlot & { cancelled?: boolean })[], done: string) {
    try {
      await send('PUT', shiftsPath(eventId), { slots: next });
      await refresh();
      toast.success(done);
      return true;
    } catch (err) {
      toast.error('Failed to save the shifts', { description: failureDescription(err, 'Please try again.') });
      return false;
    }
  }
  async function createPlan() {
    try {
      const r = await send<{ added: number; total: number }>('POST', '/api/admin/shift-plan', {
        eventId,
        shiftMinutes: minutes,
        needed,
      });
      await refresh();
      toast.success(`${r.added} shifts added (${r.total} in all)`);
    } catch (err) {
      toast.error('Failed to create the plan', { description: failureDescription(err, 'Please try again.') });
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Shifts: ${title}`}
      size="lg"
      footer={
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          Close
        </button>
      }
    >
      <ConfirmDialog
        open={cancelling !== null}
        title={`Cancel the shift ${cancelling?.id ?? ''}?`}
        message="Everyone on it (and on its waitlist) is told by email, and by text if they asked for texts. No reminder goes to them after this."
        confirmLabel="Cancel the shift"
        cancelLabel="Keep it"
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          const gone = cancelling;
          setCancelling(null);
          if (gone)
            void save(
              slots.map((x) => (x.id === gone.id ? { ...x, cancelled: true } : x)),
              'Shift cancelled: its people are being told',
            );
        }}
      />
      <h3>Shifts</h3>
      <ListState isLoading={view.isLoading && !view.data} error={view.error} empty={slots.length === 0}>
        {/* On a phone the table scrolls inside its own region, so each shift's buttons stay reachable. */}
        <div className="table-wrap" role="region" aria-label="Shifts (scrolls)" tabIndex={0}>
          <table className="table" aria-label="Shifts">
            <thead>
              <tr>
                <th scope="col">Shift</th>
                <th scope="col">When</th>
                <th scope="col">Place</th>
                <th scope="col">Filled / places</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {slots.map((s) => {
                const p = places.get(s.id);
                const filled = p ? p.capacity - p.seatsLeft : 0;
                return (
                  <tr key={s.id} data-shift-row={s.id}>
                    <td>{s.id}</td>
                    <td>
                      {formatDate(s.date)}, {formatTime(s.start)}–{formatTime(s.end)}
                    </td>
                    <td>{s.label}</td>
                    <td>
                      {filled} / {s.capacity}
                      {p?.waitlisted ? ` (+${p.waitlisted} waiting)` : ''}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn btn--secondary btn--sm"
                        aria-expanded={open === s.id}
                        onClick={() => setOpen(open === s.id ? null : s.id)}
                      >
                        People and check-in<span className="sr-only">: {s.id}</span>
                      </button>
                      {canEdit ? (
                        <button
                          type="button"
                          className="btn btn--ghost btn--sm"
                          onClick={() => setDraft({ ...s })}
                        >
                          Change<span className="sr-only"> {s.id}</span>
                        </button>
                      ) : null}
                      {canEdit && (filled > 0 || p?.waitlisted) ? (
                        <button
                          type="button"
                          className="btn btn--ghost btn--sm"
                          onClick={() => setCancelling(s)}
                        >
                          Cancel shift<span className="sr-only"> {s.id}</span>
                        </button>
                      ) : canEdit ? (
                        <button
                          type="button"
                          className="btn btn--ghost btn--sm"
                          onClick={() =>
                            void save(
                              slots.filter((x) => x.id !== s.id),
                              'Shift removed',
                            )
                          }
                        >
                          Remove<span className="sr-only"> {s.id}</span>
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {open ? (
          <SlotPeopleList eventId={eventId} slot={slots.find((s) => s.id === open)!} canEdit={canEdit} />
        ) : null}
      </ListState>

      {view.data ? (
        <SequenceSteps
          // Drawn again from what the server answers after a save (or another staff member's change).
          key={JSON.stringify(view.data.sequence)}
          path={shiftsPath(eventId)}
          sequence={view.data.sequence}
          hasSlots={slots.length > 0}
          canEdit={canEdit}
          onSaved={refresh}
        />
      ) : null}

      {canEdit ? (
        <form
          className="form-grid"
          aria-label="Add a shift"
          onSubmit={(e) => {
            e.preventDefault();
            // A known short name changes that shift: its people are told of a new time or place, once.
            const known = slots.some((s) => s.id === draft.id);
            void save(
              known ? slots.map((s) => (s.id === draft.id ? draft : s)) : [...slots, draft],
              known ? 'Shift changed' : 'Shift added',
            ).then((ok) => ok && setDraft(blankSlot()));
          }}
        >
          <h3>Add a shift</h3>
          {(
            [
              ['id', 'Short name (letters, digits, dashes)', 'text'],
              ['date', 'Date', 'date'],
              ['start', 'Starts', 'time'],
              ['end', 'Ends', 'time'],
              ['label', 'Place or task', 'text'],
              ['capacity', 'Places', 'number'],
            ] as const
          ).map(([name, label, type]) => (
            <div className="field" key={name}>
              <label htmlFor={`${id}-${name}`} className="field__label">
                {label}
              </label>
              <input
                id={`${id}-${name}`}
                className="input"
                type={type}
                required={name !== 'label'}
                value={String(draft[name] ?? '')}
                onChange={(e) =>
                  setDraft({
                    ...draft,
                    [name]: name === 'capacity' ? Number(e.target.value) : e.target.value,
                  })
                }
              />
            </div>
          ))}
          <button type="submit" className="btn btn--primary">
            {slots.some((s) => s.id === draft.id) ? 'Save the changed shift' : 'Add shift'}
          </button>
        </form>
      ) : null}

      <h3>Staffing plan from the election calendar</h3>
      {canEdit ? (
        <form
          className="form-grid"
          aria-label="Staffing plan"
          onSubmit={(e) => {
            e.preventDefault();
            void createPlan();
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-minutes`} className="field__label">
              Shift length (minutes)
            </label>
            <input
              id={`${id}-minutes`}
              className="input"
              type="number"
              min={30}
              value={minutes}
              onChange={(e) => setMinutes(Number(e.target.value))}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-needed`} className="field__label">
              People needed per shift
            </label>
            <input
              id={`${id}-needed`}
              className="input"
              type="number"
              min={1}
              value={needed}
              onChange={(e) => setNeeded(Number(e.target.value))}
            />
          </div>
          <button type="submit" className="btn btn--primary">
            Create shifts for every early-voting site and day and Election Day
          </button>
        </form>
      ) : null}
      <ListState
        isLoading={plan.isLoading && !plan.data}
        error={plan.error}
        empty={(plan.data?.rows.length ?? 0) === 0}
      >
        <StaffingGrid rows={plan.data?.rows ?? []} recruit={canEdit} />
      </ListState>
    </Dialog>
  );
}
