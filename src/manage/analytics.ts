// Analytics reports of a wall and of a product over a range of UTC days,
// from the counters (src/store/analytics.ts), and a wall's days as CSV.
// Every day of the range is listed, those without events as zeros.
import type { Kysely } from 'kysely';
import { stringify } from 'csv-stringify/sync';
import {
  addTo,
  ctr,
  dayText,
  noFigures,
  reportRange,
  withCtr,
  type DayRange,
  type Figures,
} from '../domain/analytics.js';
import { invalid, notFound } from '../domain/errors.js';
import { utcDay } from '../domain/dates.js';
import type { ProductAnalytics, WallAnalytics } from '../schemas/analytics.js';
import { productCounts, topPosts, topProducts, wallDayCounts } from '../store/analytics.js';
import { accountOf } from '../store/ownership.js';
import type { Database } from '../store/schema.js';

/** Most posts and products a wall's report lists. */
export const TOP = 10;

/** `from` and `to` of a report's query: UTC days, as the query gives them. */
export type RangeQuery = { from?: string; to?: string };

/** The days asked for, or a 400 naming every bad field; `now` (epoch ms) says which day is today. */
export function rangeOf(query: RangeQuery, now: number): DayRange {
  const r = reportRange(query.from, query.to, utcDay(now));
  if (!r.range) throw invalid(r.problems);
  return r.range;
}

/** The days of a report on a wall or product: a 400 as rangeOf, then a 404 unless it exists. */
async function reportDays(db: Kysely<Database>, kind: 'wall' | 'product', id: number, query: RangeQuery, now: number) {
  const range = rangeOf(query, now);
  if ((await accountOf(db, kind, id)) === null) throw notFound(kind, id);
  return range;
}

function daysOf(range: DayRange): number[] {
  return Array.from({ length: range.to - range.from + 1 }, (_, i) => range.from + i);
}

export async function wallAnalytics(
  db: Kysely<Database>,
  wallId: number,
  query: RangeQuery,
  now: number,
): Promise<WallAnalytics> {
  const range = await reportDays(db, 'wall', wallId, query, now);
  const [counts, posts, products] = await Promise.all([
    wallDayCounts(db, wallId, range.from, range.to),
    topPosts(db, wallId, range.from, range.to, TOP),
    topProducts(db, wallId, range.from, range.to, TOP),
  ]);
  const perDay = new Map<number, Figures>(daysOf(range).map((d) => [d, noFigures()]));
  const totals = noFigures();
  for (const c of counts) {
    addTo(perDay.get(c.day)!, c.type, c.n);
    addTo(totals, c.type, c.n);
  }
  return {
    wallId,
    from: dayText(range.from),
    to: dayText(range.to),
    totals: withCtr(totals),
    days: [...perDay].map(([day, f]) => ({ day: dayText(day), ...withCtr(f) })),
    topPosts: posts.map((p) => ({
      postId: String(p.postId),
      impressions: p.impressions,
      clicks: p.clicks,
      ctaClicks: p.ctaClicks,
      productClicks: p.productClicks,
      ctr: ctr(p),
    })),
    topProducts: products,
  };
}

export async function productAnalytics(
  db: Kysely<Database>,
  productId: number,
  query: RangeQuery,
  now: number,
): Promise<ProductAnalytics> {
  const range = await reportDays(db, 'product', productId, query, now);
  const counts = await productCounts(db, productId, range.from, range.to);
  const perDay = new Map<number, number>(daysOf(range).map((d) => [d, 0]));
  for (const c of counts.days) perDay.set(c.day, c.n);
  return {
    productId,
    from: dayText(range.from),
    to: dayText(range.to),
    totals: { productClicks: counts.days.reduce((sum, c) => sum + c.n, 0) },
    days: [...perDay].map(([day, n]) => ({ day: dayText(day), productClicks: n })),
    walls: counts.walls.map((w) => ({ wallId: w.wallId, productClicks: w.n })),
  };
}

export const CSV_COLUMNS = ['day', 'wallLoads', 'impressions', 'clicks', 'ctaClicks', 'productClicks', 'ctr'] as const;

/** A wall report's days as CSV: a header row, then one row per day. */
export function analyticsCsv(report: WallAnalytics): string {
  return stringify(report.days, { header: true, columns: [...CSV_COLUMNS] });
}

/** The file name a CSV download suggests: the wall and the range. */
export const csvFileName = (report: WallAnalytics) =>
  `wall-${report.wallId}-analytics-${report.from}-to-${report.to}.csv`;
