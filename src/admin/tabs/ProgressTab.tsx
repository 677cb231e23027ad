import { useState, type ReactNode } from 'react';
import type { Metric, Milestone, VolunteerGoal } from '../../lib/schemas/progress.ts';
import { useGoals, useMetrics, useMilestones } from '../api/get-progress.ts';
import { Badge } from '../components/Badge.tsx';
import { ListState } from '../components/ListState.tsx';
import { RowButton } from '../components/RowButton.tsx';
import { Table } from '../components/Table.tsx';
import { ProgressRecordModal } from '../modals/ProgressRecordModal.tsx';
import { GOAL_MODAL, METRIC_MODAL, MILESTONE_MODAL } from '../modals/progress-modals.ts';
import { goalForm, metricForm, milestoneForm } from '../forms/progress-form.ts';
import { formatDate } from '../forms/datetime.ts';

const PRIORITY_BADGE = { high: 'destructive', medium: 'default', low: 'secondary' } as const;

function percent(current: number, target: number | null): string {
  if (!target) return '';
  return `${Math.round((current / target) * 100)}%`;
}

/** One of the tab's three lists under its own heading. */
function Subsection({
  name,
  heading,
  list,
  empty,
  children,
}: {
  /** Prefix of the heading's id: `${name}-heading`. */
  name: string;
  heading: string;
  list: { isLoading: boolean; error: unknown };
  empty: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${name}-heading`}>
      <h3 id={`${name}-heading`} className="subhead">
        {heading}
      </h3>
      <ListState isLoading={list.isLoading} error={list.error} empty={empty}>
        {children}
      </ListState>
    </section>
  );
}

/** Metrics, volunteer goals and milestones: everyone with view_admin reads; edit_metrics edits. */
export function ProgressTab({ canEdit }: { canEdit: boolean }) {
  const metrics = useMetrics();
  const goals = useGoals();
  const milestones = useMilestones();
  const [metric, setMetric] = useState<Metric | null>(null);
  const [goal, setGoal] = useState<VolunteerGoal | null>(null);
  const [milestone, setMilestone] = useState<Milestone | null>(null);
  const metricList = metrics.data?.metrics ?? [];
  const goalList = goals.data?.goals ?? [];
  const milestoneList = milestones.data?.milestones ?? [];

  return (
    <section aria-labelledby="progress-heading" className="stack-lg">
      <div className="section-head">
        <div>
          <h2 id="progress-heading">Campaign Progress</h2>
          <p className="muted">Figures shown on the public site.</p>
        </div>
      </div>

      <Subsection name="metrics" heading="Metrics" list={metrics} empty={metricList.length === 0}>
        <ul className="cards" aria-label="Metrics">
          {metricList.map((m) => (
            <li key={m.id} className="card">
              <p className="stat__label">{m.label}</p>
              <p className="stat__value">
                {m.currentValue.toLocaleString('en-US')}
                <span className="muted"> / {m.targetValue.toLocaleString('en-US')}</span>
              </p>
              {m.sublabel ? <p className="muted">{m.sublabel}</p> : null}
              {m.trend ? <p className="muted">Trend: {m.trend}</p> : null}
              {canEdit ? <RowButton action="Edit" name={m.label} onClick={() => setMetric(m)} /> : null}
            </li>
          ))}
        </ul>
      </Subsection>

      <Subsection name="goals" heading="Volunteer goals" list={goals} empty={goalList.length === 0}>
        <Table caption="Volunteer goals" captionHidden>
          <thead>
            <tr>
              <th scope="col">Goal</th>
              <th scope="col">Progress</th>
              <th scope="col">Deadline</th>
              <th scope="col">Priority</th>
              {canEdit ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {goalList.map((g) => (
              <tr key={g.id}>
                <th scope="row">{g.description}</th>
                <td>
                  {g.currentCount} / {g.targetCount}{' '}
                  <span className="muted">{percent(g.currentCount, g.targetCount)}</span>
                </td>
                <td>{formatDate(g.deadline)}</td>
                <td>
                  <Badge variant={PRIORITY_BADGE[g.priority]}>{g.priority}</Badge>
                </td>
                {canEdit ? (
                  <td>
                    <RowButton action="Edit" name={g.description} onClick={() => setGoal(g)} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </Table>
      </Subsection>

      <Subsection name="milestones" heading="Milestones" list={milestones} empty={milestoneList.length === 0}>
        <Table caption="Milestones" captionHidden>
          <thead>
            <tr>
              <th scope="col">Milestone</th>
              <th scope="col">Current</th>
              <th scope="col">Target</th>
              {canEdit ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {milestoneList.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  <span className="cell-strong">{m.label}</span>
                  {m.description ? <span className="cell-sub">{m.description}</span> : null}
                </th>
                <td>{m.currentCount.toLocaleString('en-US')}</td>
                <td>
                  {m.targetCount === null
                    ? '—'
                    : `${m.targetCount.toLocaleString('en-US')} (${percent(m.currentCount, m.targetCount)})`}
                </td>
                {canEdit ? (
                  <td>
                    <RowButton action="Edit" name={m.label} onClick={() => setMilestone(m)} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </Table>
      </Subsection>

      {metric ? (
        <ProgressRecordModal
          key={metric.id}
          spec={METRIC_MODAL}
          initial={metricForm(metric)}
          onClose={() => setMetric(null)}
        />
      ) : null}
      {goal ? (
        <ProgressRecordModal
          key={goal.id}
          spec={GOAL_MODAL}
          initial={goalForm(goal)}
          onClose={() => setGoal(null)}
        />
      ) : null}
      {milestone ? (
        <ProgressRecordModal
          key={milestone.id}
          spec={MILESTONE_MODAL}
          initial={milestoneForm(milestone)}
          onClose={() => setMilestone(null)}
        />
      ) : null}
    </section>
  );
}
