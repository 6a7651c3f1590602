// The days an analytics report covers: the last 7, 30 or 90 UTC days
// (today included), or a range typed in and checked before it is asked for.
import type { DayRange } from '../../api/queries/analytics';

const DAY_MS = 86_400_000;
export const PRESETS = ['7', '30', '90'] as const;
export type Preset = (typeof PRESETS)[number] | 'custom';
export type RangeErrors = Partial<Record<keyof DayRange, string>>;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** the last `n` UTC days, today included */
export const lastDays = (n: number): DayRange => ({
  from: isoDay(Date.now() - (n - 1) * DAY_MS),
  to: isoDay(Date.now()),
});
const dayMs = (day: string) => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN);

/** A custom range's problems, by field, before asking the API (which says the same with fieldErrors). */
export function rangeErrors(r: DayRange): RangeErrors {
  const from = dayMs(r.from);
  const to = dayMs(r.to);
  if (Number.isNaN(from)) return { from: 'A day as YYYY-MM-DD.' };
  if (Number.isNaN(to)) return { to: 'A day as YYYY-MM-DD.' };
  if (from > to) return { to: 'On or after the first day.' };
  if ((to - from) / DAY_MS + 1 > 366) return { to: 'At most 366 days.' };
  return {};
}
