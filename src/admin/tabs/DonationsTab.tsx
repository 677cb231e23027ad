import { useEffect, useId, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { campaignToday } from '../../lib/campaign-time.ts';
import { DIMENSION_LABELS, type SummaryRow } from '../../lib/schemas/donations.ts';
import { useDonationGoal, useDonationSummary } from '../api/get-donations.ts';
import { useUpdateDonationGoal } from '../api/update-donation-goal.ts';
import { ExportButton } from '../components/ExportButton.tsx';
import { ListState } from '../components/ListState.tsx';
import { Table } from '../components/Table.tsx';
import { TextField } from '../components/Field.tsx';
import { failureDescription, serverFieldErrors } from '../forms/errors.ts';

export const usd = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

function daysBefore(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

function GroupTable({ caption, first, rows }: { caption: string; first: string; rows: SummaryRow[] }) {
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col">Gifts</th>
          <th scope="col">Gross</th>
          <th scope="col">Refunded</th>
          <th scope="col">Net</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={5}>No gifts in this range.</td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr key={r.value}>
              <th scope="row" className="cell-strong">
                {r.value}
              </th>
              <td>{r.count}</td>
              <td>{usd(r.grossCents)}</td>
              <td>
                {usd(r.refundedCents)}
                {r.refunds ? <span className="cell-sub">{r.refunds} refunded</span> : null}
              </td>
              <td>{usd(r.netCents)}</td>
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}

function GoalForm({ canEdit }: { canEdit: boolean }) {
  const { data } = useDonationGoal();
  const save = useUpdateDonationGoal();
  const id = useId();
  const goal = data?.goal ?? null;
  const [enabled, setEnabled] = useState(false);
  const [target, setTarget] = useState('');
  const [label, setLabel] = useState('');
  const [since, setSince] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!goal) return;
    setEnabled(goal.enabled);
    setTarget(String(goal.targetCents / 100));
    setLabel(goal.label);
    setSince(goal.since);
  }, [goal]);

  if (!canEdit) {
    return (
      <p className="muted">
        {goal?.enabled
          ? `The donate page shows the goal "${goal.label || 'Our fundraising goal'}": ${usd(goal.targetCents)}.`
          : 'No public fundraising goal is shown on the donate page.'}
      </p>
    );
  }

  async function onSubmit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    setSaving(true);
    setErrors({});
    try {
      await save({ enabled, targetDollars: Number(target), label, since });
      toast.success('Fundraising goal saved');
    } catch (err) {
      setErrors(serverFieldErrors(err));
      toast.error('Failed to save the goal', { description: failureDescription(err, 'Please try again.') });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-goal`}>
      <h3 id={`${id}-goal`}>Public fundraising goal</h3>
      <div className="field field--check">
        <input
          id={`${id}-enabled`}
          type="checkbox"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        <label htmlFor={`${id}-enabled`}>Show a progress bar on the donate page</label>
      </div>
      <div className="form-grid">
        <TextField
          id={`${id}-target`}
          label="Goal (dollars)"
          inputMode="numeric"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          error={errors.targetDollars}
        />
        <TextField
          id={`${id}-label`}
          label="Heading"
          value={label}
          maxLength={120}
          placeholder="Our fundraising goal"
          onChange={(e) => setLabel(e.target.value)}
          error={errors.label}
        />
        <TextField
          id={`${id}-since`}
          label="Count gifts from"
          type="date"
          value={since}
          hint="Leave empty to count every gift."
          onChange={(e) => setSince(e.target.value)}
          error={errors.since}
        />
      </div>
      <div>
        <button type="submit" className="btn btn--primary" aria-disabled={saving || undefined}>
          {saving ? 'Saving...' : 'Save goal'}
        </button>
      </div>
    </form>
  );
}

/**
 * Which outreach raised money: totals by refcode and UTM tags, by day and by
 * kind, net of refunds, for a range (every staff role reads; admin and editor
 * set the public goal). Answered from per-day aggregates, never a scan of gifts.
 */
export function DonationsTab({ canEdit }: { canEdit: boolean }) {
  const today = campaignToday();
  const [from, setFrom] = useState(() => daysBefore(today, 29));
  const [to, setTo] = useState(today);
  const { data, error, isLoading } = useDonationSummary(from, to);
  const id = useId();

  return (
    <section aria-labelledby="donations-heading" className="stack-lg">
      <div className="section-head">
        <div>
          <h2 id="donations-heading">Donations</h2>
          <p className="muted">Gifts reported by ActBlue, grouped by the link that brought them.</p>
        </div>
        <ExportButton source="donations" params={{ from, to }} label={`donations from ${from} to ${to}`} />
      </div>
      <div className="toolbar">
        <TextField
          id={`${id}-from`}
          label="From"
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <TextField
          id={`${id}-to`}
          label="To"
          type="date"
          value={to}
          onChange={(e) => setTo(e.target.value)}
        />
      </div>
      <ListState isLoading={isLoading && !data} error={error} empty={false}>
        {data ? (
          <>
            <dl className="cards" aria-label="Totals">
              <div className="card">
                <dt className="stat__label">Net raised</dt>
                <dd className="stat__value">{usd(data.totals.netCents)}</dd>
              </div>
              <div className="card">
                <dt className="stat__label">Gifts</dt>
                <dd className="stat__value">{data.totals.count}</dd>
              </div>
              <div className="card">
                <dt className="stat__label">Refunded</dt>
                <dd className="stat__value">
                  {usd(data.totals.refundedCents)} ({data.totals.refunds})
                </dd>
              </div>
              <div className="card">
                <dt className="stat__label">Gross</dt>
                <dd className="stat__value">{usd(data.totals.grossCents)}</dd>
              </div>
            </dl>
            <GroupTable caption={DIMENSION_LABELS.kind} first="Kind" rows={[data.oneTime, data.recurring]} />
            {data.cancelledRecurring ? (
              <p className="muted">
                {data.cancelledRecurring} recurring gifts in this range belong to cancelled series.
              </p>
            ) : null}
            <GroupTable
              caption={`By ${DIMENSION_LABELS.refcode.toLowerCase()}`}
              first="Refcode"
              rows={data.byRefcode}
            />
            <GroupTable caption={`By ${DIMENSION_LABELS.utmSource}`} first="Source" rows={data.byUtmSource} />
            <GroupTable caption={`By ${DIMENSION_LABELS.utmMedium}`} first="Medium" rows={data.byUtmMedium} />
            <GroupTable
              caption={`By ${DIMENSION_LABELS.utmCampaign}`}
              first="Campaign"
              rows={data.byUtmCampaign}
            />
            <GroupTable caption="By day" first="Day" rows={data.byDay} />
          </>
        ) : null}
      </ListState>
      <GoalForm canEdit={canEdit} />
    </section>
  );
}
