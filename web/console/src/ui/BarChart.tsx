// A bar per UTC day as an inline SVG: an image whose title and description
// say what it shows (the numbers are in a table next to it), three grid lines
// up to a round top, and a label under every few bars.
import { useId, type ReactNode } from 'react';

const W = 720;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 28 };

/** a round axis top at or above the largest value */
function niceMax(n: number): number {
  if (n <= 5) return 5;
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

/** "7.3." for 2025-03-07 */
export const shortDay = (day: string) => `${Number(day.slice(8, 10))}.${Number(day.slice(5, 7))}.`;

export interface Bar {
  day: string;
  value: number;
  /** the bar group's data-* attributes */
  data: Record<`data-${string}`, string | number>;
  className: string;
  /** the label under the bar, if it has one */
  label: string | null;
}

export function BarChart({
  bars,
  title,
  desc,
  axisWidth,
  axisLabel,
}: {
  bars: Bar[];
  title: ReactNode;
  desc: ReactNode;
  /** room left of the bars for the axis labels */
  axisWidth: number;
  axisLabel(value: number): ReactNode;
}) {
  const titleId = useId();
  const descId = useId();
  const top = niceMax(Math.max(...bars.map((b) => b.value), 1));
  const innerW = W - axisWidth - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(bars.length, 1);
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="chart-svg">
      <title id={titleId}>{title}</title>
      <desc id={descId}>{desc}</desc>
      {[0, top / 2, top].map((v) => (
        <g key={v}>
          <line x1={axisWidth} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="chart-grid" />
          <text x={axisWidth - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
            {axisLabel(v)}
          </text>
        </g>
      ))}
      {bars.map((b, i) => {
        const h = (b.value / top) * innerH;
        return (
          <g key={b.day} {...b.data}>
            <rect
              x={axisWidth + i * slot + slot * 0.15}
              width={slot * 0.7}
              y={PAD.top + innerH - h}
              height={h}
              className={b.className}
            />
            {b.label !== null && (
              <text x={axisWidth + i * slot + slot / 2} y={H - 8} textAnchor="middle" className="chart-label">
                {b.label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
