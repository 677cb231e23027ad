import useSWR from 'swr';
import { queryFetcher } from '../lib/client/api.ts';
import { PUBLIC_LIST_SWR } from '../lib/client/public-lists.ts';
import type { IslandUi } from '../content/ui.ts';
import { fill } from '../lib/fill.ts';
import type { PublicGoal } from '../lib/schemas/donations.ts';
import '../styles/islands.css';

const usd = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/**
 * The public fundraising goal on /donate: shown only while staff have one
 * turned on; the amount raised is net of refunds, from the stored totals,
 * and refreshes like the public lists (every 30 s).
 */
export default function DonationGoal({
  words,
}: {
  /** The goal's words in the page's language (src/content/ui.ts `islandUi`). */
  words: Pick<IslandUi, 'goalFallback' | 'raisedOf' | 'percentOfGoal'>;
}) {
  const { data } = useSWR<PublicGoal>('/api/donations/goal', queryFetcher, PUBLIC_LIST_SWR);
  const goal = data?.goal;
  if (!goal) return null;
  const percent = Math.min(100, Math.round((goal.raisedCents / goal.targetCents) * 100));
  const label = goal.label || words.goalFallback;
  return (
    <section className="form-card donation-goal" aria-labelledby="goal-heading">
      <h2 id="goal-heading" className="h-small">
        {label}
      </h2>
      <p>
        <strong>{usd(goal.raisedCents)}</strong> {fill(words.raisedOf, usd(goal.targetCents))}
      </p>
      <div
        className="goal-bar"
        role="progressbar"
        aria-labelledby="goal-heading"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={fill(words.percentOfGoal, percent)}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
    </section>
  );
}
