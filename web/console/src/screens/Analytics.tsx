// Analytics of a wall (issue 16): what its embeds and hosted page counted —
// wall loads, impressions, clicks, CTA and product clicks, CTR — over the last
// 7, 30 or 90 UTC days or a range of its own, as tiles, a chart per day (with
// the numbers as a table), the top posts and products, and a CSV download
// (fetched with the token in its header, then saved from a blob: the token
// never goes into a URL).
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, fetchManage, unwrap } from '../api/client';
import type { WallAnalytics } from '../api/records';
import { href } from '../router';
import { AnalyticsChart, count, METRICS, percent, type Metric } from '../ui/AnalyticsChart';
import { Announce, Button, Empty, ErrorNote, Loading, ScreenTitle, SelectField, TextField } from '../ui/kit';
import { useWalls } from './Walls';
import './phase2.css';

const DAY_MS = 86_400_000;
const PRESETS = ['7', '30', '90'] as const;
type Preset = (typeof PRESETS)[number] | 'custom';
interface Range {
  from: string;
  to: string;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** the last `n` UTC days, today included */
const lastDays = (n: number): Range => ({ from: isoDay(Date.now() - (n - 1) * DAY_MS), to: isoDay(Date.now()) });
const dayMs = (day: string) => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN);

/** A custom range's problems, by field, before asking the API (which says the same with fieldErrors). */
function rangeErrors(r: Range): Partial<Record<keyof Range, string>> {
  const from = dayMs(r.from);
  const to = dayMs(r.to);
  if (Number.isNaN(from)) return { from: 'A day as YYYY-MM-DD.' };
  if (Number.isNaN(to)) return { to: 'A day as YYYY-MM-DD.' };
  if (from > to) return { to: 'On or after the first day.' };
  if ((to - from) / DAY_MS + 1 > 366) return { to: 'At most 366 days.' };
  return {};
}

const query = (r: Range) => `from=${encodeURIComponent(r.from)}&to=${encodeURIComponent(r.to)}`;

/** The report as JSON (its 200 has a CSV form too, so the generated type of `data` is `unknown`: named here). */
const getAnalytics = (wallId: number, r: Range): Promise<WallAnalytics> =>
  unwrap(
    api.GET('/walls/{wallId}/analytics', {
      params: { path: { wallId: String(wallId) }, query: r },
      headers: { Accept: 'application/json' },
    }) as Promise<{ data?: { responseData: WallAnalytics }; error?: unknown; response: Response }>,
  );

/** The CSV of the range, saved as a file: fetched with the token header, handed to the browser as a blob. */
async function downloadCsv(wallId: number, r: Range): Promise<string> {
  const response = await fetchManage(`/walls/${wallId}/analytics?${query(r)}`, 'text/csv');
  const named = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  const name = named ?? `wall-${wallId}-analytics-${r.from}-${r.to}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // the download has its own copy once it started; the next task is late enough
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}

export function Analytics({ wallId }: { wallId: number | null }) {
  const walls = useWalls();
  const list = (walls.data?.pages.flatMap((p) => p.data) ?? []).filter((w) => !w.deleted);
  const wall = wallId === null ? list[0] : list.find((w) => w.id === wallId);
  const [preset, setPreset] = useState<Preset>('30');
  const [range, setRange] = useState<Range>(() => lastDays(30));
  const [draft, setDraft] = useState<Range>(range);
  const [draftErrors, setDraftErrors] = useState<Partial<Record<keyof Range, string>>>({});
  const [metric, setMetric] = useState<Metric>('impressions');
  const [said, setSaid] = useState('');
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);

  const analytics = useQuery({
    queryKey: ['analytics', wall?.id ?? 0, range.from, range.to],
    enabled: wall !== undefined,
    queryFn: () => getAnalytics(wall!.id, range),
  });
  const data = analytics.data;
  // the top posts' authors and text, from the management API (a post deleted since shows its id alone)
  const posts = useQueries({
    queries: (data?.topPosts ?? []).map((p) => ({
      queryKey: ['post', data!.wallId, p.postId],
      queryFn: () =>
        unwrap(
          api.GET('/walls/{wallId}/posts/{postId}', {
            params: { path: { wallId: String(data!.wallId), postId: p.postId } },
          }),
        ),
      retry: false,
      staleTime: 60_000,
    })),
  });

  const choose = (p: Preset) => {
    setPreset(p);
    if (p !== 'custom') setRange(lastDays(Number(p)));
    else setDraft(range);
  };
  const applyCustom = (e: FormEvent) => {
    e.preventDefault();
    const errors = rangeErrors(draft);
    setDraftErrors(errors);
    if (Object.keys(errors).length === 0) setRange(draft);
  };
  const download = async () => {
    if (!wall) return;
    setDownloading(true);
    setDownloadError(null);
    try {
      setSaid(`Downloaded ${await downloadCsv(wall.id, range)}.`);
    } catch (err) {
      setDownloadError(err);
    } finally {
      setDownloading(false);
    }
  };
  const apiError = analytics.error instanceof ApiError ? analytics.error : null;

  return (
    <section className="screen analytics">
      <ScreenTitle>Analytics{wall ? ` · ${wall.name}` : ''}</ScreenTitle>
      <p className="muted">
        What the wall did on web pages (the embed and the hosted page): counted without cookies or personal data, per
        UTC day. An impression is a post at least half visible for a second, once per page view.
      </p>
      <Announce message={said} />
      {walls.isPending && <Loading what="walls" />}
      <ErrorNote error={walls.error} title="The walls could not be loaded" />
      {walls.isSuccess && !wall && <Empty>There is no such wall, or this token does not see it.</Empty>}
      {wall && (
        <div className="panel analytics-controls">
          <SelectField
            label="Wall"
            value={wall.id}
            onChange={(e) => {
              location.hash = href.analytics(Number(e.target.value));
            }}
          >
            {list.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} (#{w.id})
              </option>
            ))}
          </SelectField>
          <fieldset className="range">
            <legend>Days</legend>
            {PRESETS.map((p) => (
              <label key={p}>
                <input type="radio" name="range" checked={preset === p} onChange={() => choose(p)} /> Last {p} days
              </label>
            ))}
            <label>
              <input type="radio" name="range" checked={preset === 'custom'} onChange={() => choose('custom')} /> From …
              to …
            </label>
          </fieldset>
          {preset === 'custom' && (
            <form className="range-custom" onSubmit={applyCustom} noValidate>
              <TextField
                label="From"
                type="date"
                value={draft.from}
                onChange={(e) => setDraft({ ...draft, from: e.target.value })}
                error={draftErrors.from ?? apiError?.forField('from')}
              />
              <TextField
                label="To"
                type="date"
                value={draft.to}
                onChange={(e) => setDraft({ ...draft, to: e.target.value })}
                error={draftErrors.to ?? apiError?.forField('to')}
              />
              <div className="form-actions">
                <Button type="submit" variant="primary">
                  Show these days
                </Button>
              </div>
            </form>
          )}
          <div className="form-actions">
            <Button onClick={() => void download()} disabled={downloading}>
              Download CSV
            </Button>
          </div>
          <ErrorNote error={downloadError} title="The CSV could not be downloaded" />
        </div>
      )}
      {wall && analytics.isPending && <Loading what="analytics" />}
      <ErrorNote error={analytics.error} title="The analytics could not be loaded" />
      {data && (
        <>
          <h2 className="range-title" data-testid="range">
            {data.from} to {data.to} (UTC)
          </h2>
          <dl className="stats tiles">
            {METRICS.map((m) => (
              <div key={m.key} data-metric={m.key}>
                <dt>{m.label}</dt>
                <dd>{count(data.totals[m.key])}</dd>
              </div>
            ))}
            <div data-metric="ctr">
              <dt>
                <abbr title="click-through rate: clicks of every kind per impression">CTR</abbr>
              </dt>
              <dd>{percent(data.totals.ctr)}</dd>
            </div>
          </dl>
          <section className="panel" aria-labelledby="per-day-title">
            <div className="screen-head">
              <h2 id="per-day-title">Per day</h2>
              <SelectField label="Chart" value={metric} onChange={(e) => setMetric(e.target.value as Metric)}>
                {METRICS.map((m) => (
                  <option key={m.key} value={m.key}>
                    {m.label}
                  </option>
                ))}
              </SelectField>
            </div>
            <AnalyticsChart days={data.days} metric={metric} />
          </section>
          <div className="analytics-tops">
            <section className="panel" aria-labelledby="top-posts-title">
              <h2 id="top-posts-title">Top posts</h2>
              {data.topPosts.length === 0 ? (
                <p className="muted">No post was seen or clicked in these days.</p>
              ) : (
                <table className="grid-table">
                  <thead>
                    <tr>
                      <th scope="col">Post</th>
                      <th scope="col" className="num">
                        Impressions
                      </th>
                      <th scope="col" className="num">
                        Clicks
                      </th>
                      <th scope="col" className="num">
                        CTA clicks
                      </th>
                      <th scope="col" className="num">
                        Product clicks
                      </th>
                      <th scope="col" className="num">
                        CTR
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.topPosts.map((p, i) => {
                      const post = posts[i]?.data;
                      const text = post ? plainText(post.content) : '';
                      return (
                        <tr key={p.postId} data-post-id={p.postId}>
                          <th scope="row" className="top-post">
                            #{p.postId}{' '}
                            {post && (
                              <span className="sub">
                                {post.authorName || post.username}
                                {text && ` — ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`}
                              </span>
                            )}
                          </th>
                          <td className="num" data-label="Impressions">
                            {count(p.impressions)}
                          </td>
                          <td className="num" data-label="Clicks">
                            {count(p.clicks)}
                          </td>
                          <td className="num" data-label="CTA clicks">
                            {count(p.ctaClicks)}
                          </td>
                          <td className="num" data-label="Product clicks">
                            {count(p.productClicks)}
                          </td>
                          <td className="num" data-label="CTR">
                            {percent(p.ctr)}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              )}
            </section>
            <section className="panel" aria-labelledby="top-products-title">
              <h2 id="top-products-title">Top products</h2>
              {data.topProducts.length === 0 ? (
                <p className="muted">No product was clicked in these days.</p>
              ) : (
                <table className="grid-table">
                  <thead>
                    <tr>
                      <th scope="col">Product</th>
                      <th scope="col" className="num">
                        Clicks
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.topProducts.map((p) => (
                      <tr key={p.productId} data-product-id={p.productId}>
                        <th scope="row">{p.name || `Product #${p.productId} (deleted)`}</th>
                        <td className="num" data-label="Clicks">
                          {count(p.productClicks)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </div>
        </>
      )}
    </section>
  );
}

/** A post's text, never its markup (a post is untrusted input). */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}
