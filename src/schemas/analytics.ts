// Analytics reports: the query of a range of UTC days, and what a wall's and
// a product's report hold (src/manage/analytics.ts builds them).
import { Type, type Static } from 'typebox';
import { RANGE_DEFAULT_DAYS, RANGE_MAX_DAYS, RANGE_MESSAGES } from '../domain/analytics.js';
import { Record, strict } from './fields.js';

const DAY = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

export const AnalyticsQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        pattern: DAY,
        'x-error': RANGE_MESSAGES.from,
        description: `first UTC day (YYYY-MM-DD), inclusive; default: ${RANGE_DEFAULT_DAYS} days before to, counting to`,
        examples: ['2026-01-01'],
      }),
    ),
    to: Type.Optional(
      Type.String({
        pattern: DAY,
        'x-error': RANGE_MESSAGES.to,
        description: `last UTC day (YYYY-MM-DD), inclusive; default today. At most ${RANGE_MAX_DAYS} days in all`,
        examples: ['2026-01-31'],
      }),
    ),
  },
  strict,
);

const Day = Type.String({ pattern: DAY, description: 'a UTC day, YYYY-MM-DD' });
const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Ctr = Type.Number({
  minimum: 0,
  description: '(clicks + ctaClicks + productClicks) / impressions, rounded to 4 decimals; 0 without impressions',
});

const figures = {
  wallLoads: Count('page views that loaded the wall'),
  impressions: Count('posts seen: at least half visible for 1 s, once per page view'),
  clicks: Count('clicks on a post’s link'),
  ctaClicks: Count('clicks on a post’s call-to-action'),
  productClicks: Count('clicks on a product (shoppable posts)'),
  ctr: Ctr,
};

export const AnalyticsFigures = Record(figures);

export const WallAnalytics = Record({
  wallId: Type.Integer(),
  from: Day,
  to: Day,
  totals: AnalyticsFigures,
  days: Type.Array(Record({ day: Day, ...figures }), { description: 'every day of the range, oldest first' }),
  topPosts: Type.Array(
    Record({
      postId: Type.String({ description: 'the post’s W2 postId' }),
      impressions: figures.impressions,
      clicks: figures.clicks,
      ctaClicks: figures.ctaClicks,
      productClicks: figures.productClicks,
      ctr: Ctr,
    }),
    { maxItems: 10, description: 'at most 10: most impressions first, then most clicks of any kind' },
  ),
  topProducts: Type.Array(
    Record({
      productId: Type.Integer(),
      name: Type.String({ description: 'empty when the product was deleted since' }),
      productClicks: figures.productClicks,
    }),
    { maxItems: 10, description: 'at most 10: most clicked first' },
  ),
});

export const ProductAnalytics = Record({
  productId: Type.Integer(),
  from: Day,
  to: Day,
  totals: Record({ productClicks: figures.productClicks }),
  days: Type.Array(Record({ day: Day, productClicks: figures.productClicks }), {
    description: 'every day of the range, oldest first',
  }),
  walls: Type.Array(Record({ wallId: Type.Integer(), productClicks: figures.productClicks }), {
    description: 'the walls it was clicked on, most clicks first',
  }),
});

export { strict };

export type AnalyticsQuery = Static<typeof AnalyticsQuery>;
export type WallAnalytics = Static<typeof WallAnalytics>;
export type ProductAnalytics = Static<typeof ProductAnalytics>;
