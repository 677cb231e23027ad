import { describe, expect, it } from 'vitest';
import { staffingGrid, type PlanRow } from '../../src/admin/tabs/StaffingGrid.tsx';

/*
 * The staffing grid's figures (docs/decisions/181-shifts.md): places in the plan's order (Election Day as "Election
 * Day polls"), days in order, a cell per place and day, and the summary's shifts short and people missing.
 */
const row = (
  place: string,
  date: string,
  filled: number,
  needed: number,
  gaps: number,
  polls = false,
): PlanRow => ({
  place,
  label: place === 'city-hall' ? 'City Hall' : place,
  date,
  filled,
  needed,
  gaps,
  polls,
});

describe('the staffing grid', () => {
  it('rows are places, columns are days; the summary counts shifts short and people missing', () => {
    const g = staffingGrid([
      row('city-hall', '2025-09-28', 4, 4, 0),
      row('city-hall', '2025-09-27', 1, 8, 4),
      row('lake-vista', '2025-09-27', 6, 8, 1),
      row('Election Day', '2025-10-11', 0, 10, 5, true),
    ]);
    expect(g.places).toEqual([
      { place: 'city-hall', label: 'City Hall' },
      { place: 'lake-vista', label: 'lake-vista' },
      { place: 'Election Day', label: 'Election Day polls' },
    ]);
    expect(g.days).toEqual(['2025-09-27', '2025-09-28', '2025-10-11']);
    expect(g.cell('city-hall', '2025-09-27')).toMatchObject({ filled: 1, needed: 8 });
    expect(g.cell('lake-vista', '2025-09-28')).toBeUndefined();
    expect({ shifts: g.shiftsShort, people: g.peopleShort }).toEqual({ shifts: 10, people: 7 + 2 + 10 });
  });

  it('a covered plan is short of no one', () => {
    const g = staffingGrid([row('city-hall', '2025-09-27', 8, 8, 0)]);
    expect({ shifts: g.shiftsShort, people: g.peopleShort }).toEqual({ shifts: 0, people: 0 });
  });
});
