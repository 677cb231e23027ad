import { formatDate } from '../forms/datetime.ts';
import { recruitHash } from '../links.ts';
import type { PlanRow as ShiftPlanRow } from '../../lib/schemas/shifts.ts';

/*
 * The staffing grid (docs/decisions/181-shifts.md): the plan view (GET /api/admin/shift-plan?event=) as one table,
 * a row per early-voting site and one for the Election Day polls, a column per day, each cell filled / needed.
 * A gap is named in words ("Short 3"), with a marker and a tint, never by colour alone; a text summary counts the
 * shifts short and the people missing. The table scrolls inside its own labelled, focusable region on a phone.
 */

/** What the grid reads of a plan row (src/lib/schemas/shifts.ts `PlanRow`, the plan view's answer). */
export type PlanRow = Pick<ShiftPlanRow, 'place' | 'label' | 'date' | 'filled' | 'needed' | 'gaps'> &
  Partial<Pick<ShiftPlanRow, 'polls' | 'zip'>>;

/** The grid's figures (pure): places in order of first appearance, days in order, totals. */
export function staffingGrid(rows: PlanRow[]) {
  const places = new Map<string, string>();
  const days = new Set<string>();
  const cells = new Map<string, PlanRow>();
  for (const r of rows) {
    if (!places.has(r.place)) places.set(r.place, r.polls ? 'Election Day polls' : r.label);
    days.add(r.date);
    cells.set(`${r.place}\n${r.date}`, r);
  }
  return {
    places: [...places].map(([place, label]) => ({ place, label })),
    days: [...days].sort(),
    cell: (place: string, date: string) => cells.get(`${place}\n${date}`),
    shiftsShort: rows.reduce((n, r) => n + r.gaps, 0),
    peopleShort: rows.reduce((n, r) => n + Math.max(0, r.needed - r.filled), 0),
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * `recruit`: each gap links to the broadcast composer on volunteers not yet on a shift (staff who compose), nearest
 * the site's ZIP first when the plan knows it.
 */
export function StaffingGrid({ rows, recruit = false }: { rows: PlanRow[]; recruit?: boolean }) {
  const grid = staffingGrid(rows);
  const summary =
    grid.shiftsShort === 0
      ? 'Every shift is covered.'
      : `${plural(grid.shiftsShort, 'shift', 'shifts')} short of ${plural(grid.peopleShort, 'person', 'people')}.`;
  return (
    <>
      <p className="staffing-summary" data-staffing-summary>
        {summary}
      </p>
      <div
        className="table-wrap staffing-grid"
        role="region"
        aria-label="Staffing grid (scrolls)"
        tabIndex={0}
      >
        <table className="table">
          <caption>Staffing grid: people filled / needed per place and day</caption>
          <thead>
            <tr>
              <th scope="col">Place</th>
              {grid.days.map((d) => (
                <th scope="col" key={d}>
                  {formatDate(d)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.places.map(({ place, label }) => (
              <tr key={place} data-grid-row={place}>
                <th scope="row">{label}</th>
                {grid.days.map((d) => {
                  const c = grid.cell(place, d);
                  if (!c)
                    return (
                      <td key={d}>
                        <span aria-hidden="true">–</span>
                        <span className="sr-only">No shifts</span>
                      </td>
                    );
                  const short = Math.max(0, c.needed - c.filled);
                  return (
                    <td key={d} className={short ? 'grid-gap' : undefined} data-grid-cell={`${place} ${d}`}>
                      {c.filled} / {c.needed}
                      {short ? (
                        <>
                          <br />
                          <strong>
                            <span aria-hidden="true">▲ </span>
                            {`Short ${short}`}
                          </strong>
                          {recruit ? (
                            <>
                              <br />
                              <a href={recruitHash(`${label}, ${formatDate(d)}`, c.zip)} data-recruit>
                                Recruit for this gap
                                <span className="sr-only">
                                  : {label}, {formatDate(d)}
                                </span>
                              </a>
                            </>
                          ) : null}
                        </>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
