// Calls per UTC day as an inline SVG bar chart (an image with a text
// summary for screen readers) and the same numbers as a table.
import { useId } from 'react';
import type { Usage } from '../api/records';

const W = 720;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 28, left: 48 };

/** a round axis top at or above the largest value */
function niceMax(n: number): number {
  if (n <= 5) return 5;
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

const shortDay = (day: string) => `${Number(day.slice(8, 10))}.${Number(day.slice(5, 7))}.`;

export function UsageChart({ usage }: { usage: Usage }) {
  const titleId = useId();
  const descId = useId();
  const days = usage.days;
  const today = days[days.length - 1];
  const total = days.reduce((n, d) => n + d.calls, 0);
  const top = niceMax(Math.max(...days.map((d) => d.calls), 1));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / days.length;
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="chart-svg">
        <title id={titleId}>Calls per day, last {days.length} days</title>
        <desc id={descId}>
          {total} calls in all; today {today?.calls ?? 0}. The table below has every day.
        </desc>
        {[0, top / 2, top].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
              {v}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const h = (d.calls / top) * innerH;
          return (
            <g key={d.day} data-day={d.day} data-calls={d.calls}>
              <rect
                x={PAD.left + i * slot + slot * 0.15}
                width={slot * 0.7}
                y={PAD.top + innerH - h}
                height={h}
                className={i === days.length - 1 ? 'chart-bar chart-today' : 'chart-bar'}
              />
              {(i % 5 === 4 || i === days.length - 1) && (
                <text x={PAD.left + i * slot + slot / 2} y={H - 8} textAnchor="middle" className="chart-label">
                  {i === days.length - 1 ? 'today' : shortDay(d.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="sr-only">Calls per UTC day; today is the last bar.</figcaption>
      <details className="chart-table">
        <summary>Calls per day as a table</summary>
        <table className="grid-table">
          <caption className="sr-only">Calls per UTC day, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col" className="num">
                Calls
              </th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td className="num">{d.calls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
