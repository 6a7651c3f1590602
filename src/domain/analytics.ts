// Analytics, the pure rules: what a beacon may report, which events count
// once per page view, the counter a reported event adds to, the UTC days a
// report spans, and the click-through rate. No I/O: the aggregator
// (src/analytics/), the store (src/store/analytics.ts) and the services
// (src/manage/analytics.ts) build on these.

/** What the embed reports (the beacon's `type`). */
export const EVENT_TYPES = ['impression', 'click', 'cta_click', 'product_click', 'wall_load'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Events in one beacon, at most. */
export const EVENTS_MAX = 50;

/** Counted once per page view (`view`), however often a page resends them. */
export const ONCE_PER_VIEW: ReadonlySet<EventType> = new Set<OncePerView>(['impression', 'wall_load']);
export type OncePerView = 'impression' | 'wall_load';
export const countsOncePerView = (k: CounterKey): k is CounterKey & { type: OncePerView } => ONCE_PER_VIEW.has(k.type);

/**
 * What a page view remembers of a once-per-view event, as one number: 0 for
 * its wall load, the post's id for an impression (ids are ≥ 1 and below
 * 2^53). Numbers, not strings: a view's memory is held for half an hour at
 * thousands of events a second, and small integers cost the heap nothing.
 */
export function viewMemberOf(k: CounterKey & { type: OncePerView }): number {
  return k.type === 'wall_load' ? 0 : k.postId;
}

/** The event types that need a post, and those that need a product. */
export const NEEDS_POST: ReadonlySet<EventType> = new Set(['impression', 'click', 'cta_click']);
export const NEEDS_PRODUCT: ReadonlySet<EventType> = new Set(['product_click']);

/** One reported event, as validated. */
export interface ReportedEvent {
  type: EventType;
  postId?: string;
  productId?: number;
}

/**
 * One counter: a wall's events of one type on one UTC day, for one post and
 * one product (0: none — a wall load has neither, an impression no product).
 */
export interface CounterKey {
  wallId: number;
  /** UTC day, days since 1970-01-01 */
  day: number;
  type: EventType;
  postId: number;
  productId: number;
}

export interface Count extends CounterKey {
  n: number;
}

/**
 * The problem of an event whose type lacks what it needs (an impression
 * without a post, a product click without a product), or null. A wall load
 * names neither; what an event names beyond its type's needs is kept (a
 * product click may say on which post it happened).
 */
export function eventProblem(e: ReportedEvent, index: number): string | null {
  const an = () => (/^[aeiou]/.test(e.type) ? 'an' : 'a');
  if (NEEDS_POST.has(e.type) && e.postId === undefined)
    return `events[${index}].postId is required for ${an()} ${e.type} event`;
  if (NEEDS_PRODUCT.has(e.type) && e.productId === undefined)
    return `events[${index}].productId is required for ${an()} ${e.type} event`;
  return null;
}

/** The counter an event adds to (a wall load counts for the wall alone). */
export function counterOf(wallId: number, day: number, e: ReportedEvent): CounterKey {
  const whole = e.type === 'wall_load';
  return {
    wallId,
    day,
    type: e.type,
    postId: whole || e.postId === undefined ? 0 : Number(e.postId),
    productId: whole || e.productId === undefined ? 0 : e.productId,
  };
}

// ---------- days and ranges ----------

const DAY_MS = 86_400_000;

/** The longest range a report covers, days. */
export const RANGE_MAX_DAYS = 366;
/** The range a report covers when none is asked: this many UTC days, ending today. */
export const RANGE_DEFAULT_DAYS = 30;

/** UTC day number → `YYYY-MM-DD`. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` → UTC day number, or null when malformed or not a real day (2025-02-30). */
export function parseDay(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return Math.floor(date.getTime() / DAY_MS);
}

export interface DayRange {
  /** first and last UTC day, inclusive */
  from: number;
  to: number;
}

export interface RangeProblem {
  field: 'from' | 'to';
  message: string;
}

export const RANGE_MESSAGES = {
  from: 'from must be a day as YYYY-MM-DD',
  to: 'to must be a day as YYYY-MM-DD',
  order: 'from must not be after to',
  span: `the range must span at most ${RANGE_MAX_DAYS} days`,
} as const;

/**
 * The days a report covers: `from` and `to` inclusive; without `to`, today;
 * without `from`, the RANGE_DEFAULT_DAYS days ending at `to`. Every problem
 * is named (a bad day, from after to, over RANGE_MAX_DAYS days).
 */
export function reportRange(
  from: string | undefined,
  to: string | undefined,
  today: number,
): { range: DayRange; problems: [] } | { range: null; problems: RangeProblem[] } {
  const problems: RangeProblem[] = [];
  const end = to === undefined ? today : parseDay(to);
  if (end === null) problems.push({ field: 'to', message: RANGE_MESSAGES.to });
  const start = from === undefined ? (end === null ? null : end - RANGE_DEFAULT_DAYS + 1) : parseDay(from);
  if (from !== undefined && start === null) problems.push({ field: 'from', message: RANGE_MESSAGES.from });
  if (start === null || end === null) return { range: null, problems };
  if (start > end) return { range: null, problems: [{ field: 'from', message: RANGE_MESSAGES.order }] };
  if (end - start + 1 > RANGE_MAX_DAYS)
    return { range: null, problems: [{ field: 'from', message: RANGE_MESSAGES.span }] };
  return { range: { from: start, to: end }, problems: [] };
}

// ---------- figures ----------

export interface Figures {
  wallLoads: number;
  impressions: number;
  clicks: number;
  ctaClicks: number;
  productClicks: number;
  ctr: number;
}

/** The figure each event type adds to. */
export const FIGURE_OF: Record<EventType, Exclude<keyof Figures, 'ctr'>> = {
  wall_load: 'wallLoads',
  impression: 'impressions',
  click: 'clicks',
  cta_click: 'ctaClicks',
  product_click: 'productClicks',
};

/**
 * Click-through rate: every kind of click (post link, call-to-action,
 * product) per impression, rounded to 4 decimals; 0 when nothing was seen.
 */
export function ctr(f: { impressions: number; clicks: number; ctaClicks: number; productClicks: number }): number {
  if (f.impressions <= 0) return 0;
  return Math.round(((f.clicks + f.ctaClicks + f.productClicks) / f.impressions) * 10_000) / 10_000;
}

export const noFigures = (): Figures => ({
  wallLoads: 0,
  impressions: 0,
  clicks: 0,
  ctaClicks: 0,
  productClicks: 0,
  ctr: 0,
});

/** Adds `n` events of a type to figures (ctr is computed once they are complete: `withCtr`). */
export function addTo(f: Figures, type: EventType, n: number): void {
  f[FIGURE_OF[type]] += n;
}

export const withCtr = <F extends Figures>(f: F): F => ({ ...f, ctr: ctr(f) });
