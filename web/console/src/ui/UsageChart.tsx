// Calls per UTC day as an inline SVG bar chart (an image with a text
// summary for screen readers) and the same numbers as a table.
import type { Usage } from '../api/records';
import { BarChart, shortDay } from './BarChart';
import { DataTable } from './kit';

export function UsageChart({ usage }: { usage: Usage }) {
  const days = usage.days;
  const today = days[days.length - 1];
  const total = days.reduce((n, d) => n + d.calls, 0);
  const last = days.length - 1;
  return (
    <figure className="chart">
      <BarChart
        axisWidth={48}
        axisLabel={(v) => v}
        title={<>Calls per day, last {days.length} days</>}
        desc={
          <>
            {total} calls in all; today {today?.calls ?? 0}. The table below has every day.
          </>
        }
        bars={days.map((d, i) => ({
          day: d.day,
          value: d.calls,
          data: { 'data-day': d.day, 'data-calls': d.calls },
          className: i === last ? 'chart-bar chart-today' : 'chart-bar',
          label: i === last ? 'today' : i % 5 === 4 ? shortDay(d.day) : null,
        }))}
      />
      <figcaption className="sr-only">Calls per UTC day; today is the last bar.</figcaption>
      <details className="chart-table">
        <summary>Calls per day as a table</summary>
        <DataTable
          className="grid-table"
          caption="Calls per UTC day, newest first"
          columns={['Day (UTC)', 'Calls']}
          numeric={['Calls']}
        >
          {[...days].reverse().map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td className="num">{d.calls}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
