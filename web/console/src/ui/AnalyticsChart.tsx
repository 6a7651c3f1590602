// One metric of a wall's analytics per UTC day as an inline SVG bar chart
// (an image with a text summary for screen readers), and every metric per
// day as a table.
import type { AnalyticsDay } from '../api/records';
import { BarChart, shortDay } from './BarChart';
import { DataTable } from './kit';

export type Metric = 'impressions' | 'clicks' | 'ctaClicks' | 'productClicks' | 'wallLoads';

export const METRICS: { key: Metric; label: string }[] = [
  { key: 'impressions', label: 'Impressions' },
  { key: 'clicks', label: 'Clicks' },
  { key: 'ctaClicks', label: 'CTA clicks' },
  { key: 'productClicks', label: 'Product clicks' },
  { key: 'wallLoads', label: 'Wall loads' },
];

/** a rate as a percentage; the no-break space keeps the sign with its number */
export const percent = (ctr: number) => `${(ctr * 100).toFixed(2)}\u00a0%`;
export const count = (n: number) => n.toLocaleString('en');

/** A row's numbers: one cell a metric, then its CTR. */
export function MetricCells<M extends Metric>({
  row,
  metrics,
}: {
  row: Record<NoInfer<M>, number> & { ctr: number };
  metrics: readonly { key: M; label: string }[];
}) {
  return (
    <>
      {metrics.map((m) => (
        <td className="num" data-label={m.label} key={m.key}>
          {count(row[m.key])}
        </td>
      ))}
      <td className="num" data-label="CTR">
        {percent(row.ctr)}
      </td>
    </>
  );
}

export function AnalyticsChart({ days, metric }: { days: AnalyticsDay[]; metric: Metric }) {
  const label = METRICS.find((m) => m.key === metric)!.label;
  const values = days.map((d) => d[metric]);
  const total = values.reduce((a, b) => a + b, 0);
  const best = days[values.indexOf(Math.max(...values))];
  // about six day labels, whatever the range
  const labelEvery = Math.max(1, Math.round(days.length / 6));
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return (
    <figure className="chart">
      <BarChart
        axisWidth={56}
        axisLabel={count}
        title={
          <>
            {label} per day, {first} to {last}
          </>
        }
        desc={
          <>
            {count(total)} in all
            {total > 0 && best ? `; the most on ${best.day} (${count(best[metric])})` : ''}. The table below has every
            day.
          </>
        }
        bars={days.map((d, i) => ({
          day: d.day,
          value: d[metric],
          data: { 'data-day': d.day, 'data-value': d[metric] },
          className: 'chart-bar',
          label: i % labelEvery === 0 || i === days.length - 1 ? shortDay(d.day) : null,
        }))}
      />
      <figcaption className="sr-only">{label} per UTC day.</figcaption>
      <details className="chart-table">
        <summary>Every day as a table</summary>
        <DataTable
          className="grid-table"
          caption="Analytics per UTC day, newest first"
          columns={['Day (UTC)', ...METRICS.map((m) => m.label), 'CTR']}
          numeric={[...METRICS.map((m) => m.label), 'CTR']}
        >
          {[...days].reverse().map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <MetricCells row={d} metrics={METRICS} />
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
