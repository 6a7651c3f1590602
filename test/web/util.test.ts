// The wall's dates (web/embed/util.ts postDate): relative while recent, then
// a date — never "3276 days ago".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { postDate } from '../../web/embed/util.js';

/** local time, as the visitor's browser reads it */
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).getTime();
const iso = (ms: number) => new Date(ms).toISOString();
const NOW = at(2024, 3, 20, 15, 0);

describe('postDate', () => {
  it('reads recent posts relatively', () => {
    expect(postDate(iso(NOW - 10_000), NOW)).toBe('now');
    expect(postDate(iso(NOW - 5 * 60_000), NOW)).toBe('5 min. ago');
    expect(postDate(iso(NOW - 3 * 3_600_000), NOW)).toBe('3 hr. ago');
    expect(postDate(iso(at(2024, 3, 19, 9)), NOW)).toBe('yesterday');
    expect(postDate(iso(at(2024, 3, 17, 20)), NOW)).toBe('3 days ago');
    expect(postDate(iso(at(2024, 3, 13, 8)), NOW)).toBe('7 days ago');
  });

  it('reads older posts as a date, with the year when it is not this year', () => {
    expect(postDate(iso(at(2024, 3, 12, 8)), NOW)).toBe('12 Mar');
    expect(postDate(iso(at(2015, 6, 1, 8)), NOW)).toBe('1 Jun 2015');
    expect(postDate(iso(at(2023, 12, 31, 8)), at(2024, 1, 2, 10))).toBe('2 days ago');
    expect(postDate(iso(at(2023, 12, 1, 8)), at(2024, 1, 2, 10))).toBe('1 Dec 2023');
  });

  it('honours relativeUpToDays', () => {
    expect(postDate(iso(at(2024, 3, 17, 20)), NOW, { relativeUpToDays: 1 })).toBe('17 Mar');
    expect(postDate(iso(at(2024, 2, 20, 20)), NOW, { relativeUpToDays: 60 })).toBe('29 days ago');
  });

  it('does not say "yesterday" of a post an hour before midnight', () => {
    const justAfterMidnight = at(2024, 3, 20, 0, 30);
    expect(postDate(iso(at(2024, 3, 19, 23, 0)), justAfterMidnight)).toBe('1 hr. ago');
  });

  it('reads a slightly early clock as now, a far future or broken date safely', () => {
    expect(postDate(iso(NOW + 20_000), NOW)).toBe('now');
    expect(postDate(iso(at(2025, 1, 5)), NOW)).toBe('5 Jan 2025');
    expect(postDate('not a date', NOW)).toBe('');
  });

  it('never reads more than the limit in days, and is never empty for a real date', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at(1990, 1, 1), max: at(2040, 1, 1) }),
        fc.integer({ min: 0, max: 400 * 86_400_000 }),
        fc.integer({ min: 0, max: 30 }),
        (now, back, limit) => {
          const text = postDate(iso(now - back), now, { relativeUpToDays: limit });
          expect(text).not.toBe('');
          const days = /^(\d+) days ago$/.exec(text);
          if (days) expect(Number(days[1])).toBeLessThanOrEqual(limit);
          expect(text).not.toMatch(/week|month|year/);
        },
      ),
    );
  });
});
