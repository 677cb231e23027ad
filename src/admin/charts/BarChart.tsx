import { useId } from 'react';

/**
 * A small bar chart in plain SVG (docs/decisions/180-overview.md): no charting library (the dashboard ships none,
 * and bars over days need ~100 lines), colours from the Okabe-Ito palette (told apart with any colour vision),
 * each series also named in the legend and the table beside the chart, and a one-line summary read to screen
 * readers as the figure's description. The chart is a picture of the table, never the only place a number is.
 */
export interface Series {
  key: string;
  label: string;
  values: readonly number[];
}

/** Okabe-Ito: distinguishable with protanopia, deuteranopia and tritanopia, each at least 3:1 on white. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'] as const;

const W = 640;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 28, left: 40 };

/** Round tick values: 0, then about four steps of 1, 2 or 5 times a power of ten up to the largest bar. */
export function ticks(max: number): number[] {
  if (max <= 0) return [0];
  const rough = max / 4;
  const p = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= rough) ?? p * 10;
  const out: number[] = [];
  for (let v = 0; v <= max + step - 1e-9; v += step) out.push(Math.round(v));
  return out;
}

export function BarChart({
  title,
  summary,
  labels,
  series,
  stacked = false,
}: {
  title: string;
  summary: string;
  /** One label per bar group (a day: "Nov 1"). */
  labels: readonly string[];
  series: readonly Series[];
  stacked?: boolean;
}) {
  const id = useId();
  const n = labels.length;
  const totals = labels.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const max = stacked ? Math.max(0, ...totals) : Math.max(0, ...series.flatMap((s) => s.values.slice(0, n)));
  const axis = ticks(max);
  const top = Math.max(1, axis[axis.length - 1] ?? 1);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, n);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  // Label every day up to two weeks; beyond, about eight labels.
  const every = n <= 14 ? 1 : Math.ceil(n / 8);

  return (
    <figure className="chart" aria-labelledby={`${id}-t`}>
      <figcaption id={`${id}-t`} className="chart__title">
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-t`}
        aria-describedby={`${id}-d`}
        className="chart__svg"
      >
        {axis.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="chart__grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="chart__tick">
              {v}
            </text>
          </g>
        ))}
        {labels.map((label, i) => {
          const x0 = PAD.left + i * slot;
          const inner = slot * 0.8;
          const barW = stacked ? inner : inner / Math.max(1, series.length);
          let base = 0;
          return (
            <g key={label}>
              {series.map((s, j) => {
                const v = s.values[i] ?? 0;
                const x = x0 + slot * 0.1 + (stacked ? 0 : j * barW);
                const y1 = y(base + v);
                const y0 = y(base);
                if (stacked) base += v;
                return v > 0 ? (
                  <rect
                    key={s.key}
                    x={x}
                    y={y1}
                    width={Math.max(1, barW - 1)}
                    height={Math.max(0, y0 - y1)}
                    fill={PALETTE[j % PALETTE.length]}
                  />
                ) : null;
              })}
              {i % every === 0 ? (
                <text x={x0 + slot / 2} y={H - 8} textAnchor="middle" className="chart__tick">
                  {label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <p id={`${id}-d`} className="chart__summary">
        {summary}
      </p>
      <ul className="chart__legend" aria-label={`${title}: legend`}>
        {series.map((s, j) => (
          <li key={s.key}>
            <span
              className="chart__swatch"
              style={{ background: PALETTE[j % PALETTE.length] }}
              aria-hidden="true"
            />
            {s.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}
