// The pure rules of analytics: days, ranges, the click-through rate, what an
// event needs and the counter it adds to.
import { describe, expect, it } from 'vitest';
import {
  counterOf,
  ctr,
  dayText,
  eventProblem,
  parseDay,
  reportRange,
  RANGE_MESSAGES,
} from '../../src/domain/analytics.js';

const D = (text: string) => parseDay(text)!;

describe('analytics rules', () => {
  it('read and write UTC days, refusing days that do not exist', () => {
    expect(dayText(D('2026-01-15'))).toBe('2026-01-15');
    expect(D('1970-01-02')).toBe(1);
    expect(dayText(D('2024-02-29'))).toBe('2024-02-29');
    for (const bad of ['2025-02-29', '2026-13-01', '2026-00-10', '2026-01-32', '2026-1-5', '26-01-05', ''])
      expect(parseDay(bad), bad).toBeNull();
  });

  it('make a range: inclusive, 30 days ending today by default, at most 366 days, from not after to', () => {
    const today = D('2026-01-15');
    expect(reportRange(undefined, undefined, today)).toEqual({
      range: { from: D('2025-12-17'), to: today },
      problems: [],
    });
    expect(reportRange(undefined, '2026-01-10', today).range).toEqual({ from: D('2025-12-12'), to: D('2026-01-10') });
    expect(reportRange('2026-01-01', undefined, today).range).toEqual({ from: D('2026-01-01'), to: today });
    expect(reportRange('2025-01-15', '2026-01-15', today).range).not.toBeNull(); // 366 days
    expect(reportRange('2025-01-14', '2026-01-15', today).problems).toEqual([
      { field: 'from', message: RANGE_MESSAGES.span },
    ]);
    expect(reportRange('2026-01-02', '2026-01-01', today).problems).toEqual([
      { field: 'from', message: RANGE_MESSAGES.order },
    ]);
    expect(reportRange('x', 'y', today).problems.map((p) => p.field)).toEqual(['to', 'from']);
  });

  it('rate clicks of every kind per impression, to 4 decimals; 0 without impressions', () => {
    expect(ctr({ impressions: 0, clicks: 5, ctaClicks: 0, productClicks: 0 })).toBe(0);
    expect(ctr({ impressions: 3, clicks: 1, ctaClicks: 0, productClicks: 0 })).toBe(0.3333);
    expect(ctr({ impressions: 3, clicks: 1, ctaClicks: 0, productClicks: 1 })).toBe(0.6667);
    expect(ctr({ impressions: 2, clicks: 2, ctaClicks: 1, productClicks: 1 })).toBe(2);
  });

  it('say what each event needs, and count a wall load for the wall alone', () => {
    expect(eventProblem({ type: 'impression' }, 3)).toBe('events[3].postId is required for an impression event');
    expect(eventProblem({ type: 'product_click', postId: '1' }, 0)).toMatch(/productId is required/);
    expect(eventProblem({ type: 'product_click', productId: 4 }, 0)).toBeNull();
    expect(eventProblem({ type: 'wall_load' }, 0)).toBeNull();
    expect(counterOf(7, 100, { type: 'wall_load', postId: '5', productId: 6 })).toEqual({
      wallId: 7,
      day: 100,
      type: 'wall_load',
      postId: 0,
      productId: 0,
    });
    expect(counterOf(7, 100, { type: 'product_click', postId: '5', productId: 6 })).toMatchObject({
      postId: 5,
      productId: 6,
    });
  });
});
