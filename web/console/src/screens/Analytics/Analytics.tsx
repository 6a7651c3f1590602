// Analytics of a wall (issue 16): what its embeds and hosted page counted —
// wall loads, impressions, clicks, CTA and product clicks, CTR — over the last
// 7, 30 or 90 UTC days or a range of its own, as tiles, a chart per day (with
// the numbers as a table), the top posts and products, and a CSV download.
import { useState } from 'react';
import { apiErrorOf } from '../../api/client';
import { useAnalytics, type DayRange } from '../../api/queries/analytics';
import { useChosenWall } from '../../api/queries/walls';
import type { WallAnalytics } from '../../api/records';
import { AnalyticsChart, count, METRICS, percent, type Metric } from '../../ui/AnalyticsChart';
import { Options, SelectField } from '../../ui/fields';
import { Announce, QueryStatus, ScreenTitle } from '../../ui/kit';
import './Analytics.css';
import { lastDays, type Preset } from './range';
import { RangeControls } from './RangeControls';
import { TopPosts, TopProducts } from './Tops';

export function Analytics({ wallId }: { wallId: number | null }) {
  const { wall, walls, query } = useChosenWall(wallId);
  const [preset, setPreset] = useState<Preset>('30');
  const [range, setRange] = useState<DayRange>(() => lastDays(30));
  const [metric, setMetric] = useState<Metric>('impressions');
  const [said, setSaid] = useState('');
  const analytics = useAnalytics(wall?.id, range);
  const data = analytics.data;

  return (
    <section className="screen analytics">
      <ScreenTitle>Analytics{wall ? ` · ${wall.name}` : ''}</ScreenTitle>
      <p className="muted">
        What the wall did on web pages (the embed and the hosted page): counted without cookies or personal data, per
        UTC day. An impression is a post at least half visible for a second, once per page view.
      </p>
      <Announce message={said} />
      <QueryStatus
        query={query}
        what="walls"
        empty={!wall && 'There is no such wall, or this token does not see it.'}
      />
      {wall && (
        <RangeControls
          wall={wall}
          walls={walls}
          preset={preset}
          range={range}
          apiError={apiErrorOf(analytics.error)}
          onPreset={setPreset}
          onRange={setRange}
          onSaid={setSaid}
        />
      )}
      <QueryStatus query={analytics} active={wall !== undefined} what="analytics" />
      {data && (
        <>
          <h2 className="range-title" data-testid="range">
            {data.from} to {data.to} (UTC)
          </h2>
          <Totals totals={data.totals} />
          <section className="panel" aria-labelledby="per-day-title">
            <div className="screen-head">
              <h2 id="per-day-title">Per day</h2>
              <SelectField label="Chart" value={metric} onChange={(e) => setMetric(e.target.value as Metric)}>
                <Options of={METRICS.map((m) => [m.key, m.label])} />
              </SelectField>
            </div>
            <AnalyticsChart days={data.days} metric={metric} />
          </section>
          <div className="analytics-tops">
            <TopPosts report={data} />
            <TopProducts products={data.topProducts} />
          </div>
        </>
      )}
    </section>
  );
}

/** The range's totals as tiles. */
function Totals({ totals }: { totals: WallAnalytics['totals'] }) {
  return (
    <dl className="stats tiles">
      {METRICS.map((m) => (
        <div key={m.key} data-metric={m.key}>
          <dt>{m.label}</dt>
          <dd>{count(totals[m.key])}</dd>
        </div>
      ))}
      <div data-metric="ctr">
        <dt>
          <abbr title="click-through rate: clicks of every kind per impression">CTR</abbr>
        </dt>
        <dd>{percent(totals.ctr)}</dd>
      </div>
    </dl>
  );
}
