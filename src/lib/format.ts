/* Pure formatting helpers shared by pages and islands. */

const usdFormatter = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

/** Whole-dollar amount as shown on the site: 12000 -> "$12,000". */
export function formatUsd(amount: number): string {
  return usdFormatter.format(amount);
}
