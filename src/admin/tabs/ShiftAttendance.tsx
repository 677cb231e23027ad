import type { ShiftAttendanceCounts } from '../../lib/schemas/shifts.ts';
import { Badge } from '../components/Badge.tsx';

/**
 * A volunteer's shifts as staff read them (docs/decisions/181-shifts.md, "Attendance"): on the person page and beside
 * a person on a shift's roster. Two no-shows in a row flag them "call, don't text": no more shift texts go to them.
 */
export function CallDontText() {
  return (
    <span data-call-dont-text>
      <Badge variant="warning">Call, don&apos;t text (two no-shows in a row)</Badge>
    </span>
  );
}

export function ShiftAttendanceLine({ counts }: { counts: ShiftAttendanceCounts }) {
  return (
    <li data-shift-attendance>
      Shifts: {counts.signedUp} signed up, {counts.confirmed} confirmed, {counts.attended} attended,{' '}
      {counts.noShow} no-show{counts.noShow === 1 ? '' : 's'}
      {counts.callDontText ? (
        <>
          {' '}
          <CallDontText />
        </>
      ) : null}
    </li>
  );
}
