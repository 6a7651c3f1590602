// One metric of a wall's analytics per UTC day as an inline SVG bar chart
// (an image with a text summary for screen readers), and every metric per
// day as a table.
import { useId } from 'react';
import type { AnalyticsDay } from '../api/records';

const W = 720;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 28, left: 56 };

export type Metric = 'impressions' | 'clicks' | 'ctaClicks' | 'productClicks' | 'wallLoads';

export const METRICS: { key: Metric; label: string }[] = [
  { key: 'impressions', label: 'Impressions' },
  { key: 'clicks', label: 'Clicks' },
  { key: 'ctaClicks', label: 'CTA clicks' },
  { key: 'productClicks', label: 'Product clicks' },
  { key: 'wallLoads', label: 'Wall loads' },
];

/** a round axis top at or above the largest value */
function niceMax(n: number): number {
  if (n <= 5) return 5;
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

const shortDay = (day: string) => `${Number(day.slice(8, 10))}.${Number(day.slice(5, 7))}.`;
/** a rate as a percentage; the no-break space keeps the sign with its number */
export const percent = (ctr: number) => `${(ctr * 100).toFixed(2)}\u00a0%`;
export const count = (n: number) => n.toLocaleString('en');

export function AnalyticsChart({ days, metric }: { days: AnalyticsDay[]; metric: Metric }) {
  const titleId = useId();
  const descId = useId();
  const label = METRICS.find((m) => m.key === metric)!.label;
  const values = days.map((d) => d[metric]);
  const total = values.reduce((a, b) => a + b, 0);
  const best = days[values.indexOf(Math.max(...values))];
  const top = niceMax(Math.max(...values, 1));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(days.length, 1);
  // about six day labels, whatever the range
  const labelEvery = Math.max(1, Math.round(days.length / 6));
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="chart-svg">
        <title id={titleId}>
          {label} per day, {first} to {last}
        </title>
        <desc id={descId}>
          {count(total)} in all
          {total > 0 && best ? `; the most on ${best.day} (${count(best[metric])})` : ''}. The table below has every
          day.
        </desc>
        {[0, top / 2, top].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
              {count(v)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const h = (d[metric] / top) * innerH;
          return (
            <g key={d.day} data-day={d.day} data-value={d[metric]}>
              <rect
                x={PAD.left + i * slot + slot * 0.15}
                width={slot * 0.7}
                y={PAD.top + innerH - h}
                height={h}
                className="chart-bar"
              />
              {(i % labelEvery === 0 || i === days.length - 1) && (
                <text x={PAD.left + i * slot + slot / 2} y={H - 8} textAnchor="middle" className="chart-label">
                  {shortDay(d.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="sr-only">{label} per UTC day.</figcaption>
      <details className="chart-table">
        <summary>Every day as a table</summary>
        <table className="grid-table">
          <caption className="sr-only">Analytics per UTC day, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {METRICS.map((m) => (
                <th scope="col" className="num" key={m.key}>
                  {m.label}
                </th>
              ))}
              <th scope="col" className="num">
                CTR
              </th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                {METRICS.map((m) => (
                  <td className="num" data-label={m.label} key={m.key}>
                    {count(d[m.key])}
                  </td>
                ))}
                <td className="num" data-label="CTR">
                  {percent(d.ctr)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
