// The analytics reports of the management API: a wall's (JSON and CSV) and a
// product's, over a range of UTC days, from beacons counted on several days;
// their validation, default range and roles.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dayText } from '../../../src/domain/analytics.js';
import { utcDay } from '../../../src/domain/dates.js';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { call } from '../../helpers/http.js';
import { NOW, describeSample } from '../../helpers/sample.js';
import { MANAGE, startEmbedServer, type EmbedServer } from '../embed/helpers.js';
import { beacon, flush, newView } from './helpers.js';

const DAY_MS = 86_400_000;
const TODAY = utcDay(NOW);
const day = (offset: number) => dayText(TODAY + offset);

interface Report {
  wallId: number;
  from: string;
  to: string;
  totals: Record<string, number>;
  days: ({ day: string } & Record<string, number>)[];
  topPosts: Record<string, unknown>[];
  topProducts: Record<string, unknown>[];
}

describeSample('analytics reports', () => {
  let s: EmbedServer;
  beforeAll(async () => {
    s = await startEmbedServer();
    const { key } = await s.makeKey(7011);
    const send = async (offset: number, events: unknown[]) => {
      s.srv.clock.now = NOW + offset * DAY_MS;
      const res = await beacon(s.srv.baseUrl, key, { view: newView(), events });
      expect(res.status, res.text).toBe(202);
    };
    const impressions = (post: string, n: number) =>
      Array.from({ length: n }, () => ({ type: 'impression', postId: post }));
    // two days ago: one page view
    await send(-2, [
      { type: 'wall_load' },
      { type: 'impression', postId: '17001' },
      { type: 'click', postId: '17001' },
    ]);
    // today: four page views
    for (let v = 0; v < 4; v++)
      await send(0, [
        { type: 'wall_load' },
        { type: 'impression', postId: '17001' },
        { type: 'impression', postId: '17010' },
        ...(v < 2 ? [{ type: 'impression', postId: '17013' }] : []),
        ...(v === 0 ? [{ type: 'cta_click', postId: '17010' }] : []),
        ...(v < 3 ? [{ type: 'product_click', postId: '17010', productId: 7502 }] : []),
        ...(v === 0 ? [{ type: 'product_click', postId: '17013', productId: 7501 }] : []),
      ]);
    // repeats within a view are one impression each
    await send(0, impressions('17004', 3));
    // long before the default range
    await send(-40, [{ type: 'wall_load' }]);
    s.srv.clock.now = NOW;
    await flush(s);
  });
  afterAll(async () => s?.close());

  const report = async (query = '') => {
    const res = await s.manage('GET', `/walls/7011/analytics${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json().responseData as Report;
  };

  it('a wall’s: totals, every day of the range (zeros too), top posts and products', async () => {
    const r = await report(`?from=${day(-3)}&to=${day(0)}`);
    expect(r.wallId).toBe(7011);
    expect([r.from, r.to]).toEqual([day(-3), day(0)]);
    const zero = { wallLoads: 0, impressions: 0, clicks: 0, ctaClicks: 0, productClicks: 0, ctr: 0 };
    expect(r.days).toEqual([
      { day: day(-3), ...zero },
      { day: day(-2), wallLoads: 1, impressions: 1, clicks: 1, ctaClicks: 0, productClicks: 0, ctr: 1 },
      { day: day(-1), ...zero },
      // 4 + 4 + 2 + 1 impressions; 1 CTA and 4 product clicks: 5 / 11
      { day: day(0), wallLoads: 4, impressions: 11, clicks: 0, ctaClicks: 1, productClicks: 4, ctr: 0.4545 },
    ]);
    expect(r.totals).toEqual({
      wallLoads: 5,
      impressions: 12,
      clicks: 1,
      ctaClicks: 1,
      productClicks: 4,
      ctr: 0.5,
    });
    expect(r.topPosts).toEqual([
      { postId: '17001', impressions: 5, clicks: 1, ctaClicks: 0, productClicks: 0, ctr: 0.2 },
      { postId: '17010', impressions: 4, clicks: 0, ctaClicks: 1, productClicks: 3, ctr: 1 },
      { postId: '17013', impressions: 2, clicks: 0, ctaClicks: 0, productClicks: 1, ctr: 0.5 },
      { postId: '17004', impressions: 1, clicks: 0, ctaClicks: 0, productClicks: 0, ctr: 0 },
    ]);
    expect(r.topProducts).toEqual([
      { productId: 7502, name: '"quoted" product 2', productClicks: 3 },
      { productId: 7501, name: 'naïve product 1', productClicks: 1 },
    ]);
  });

  it('by default the 30 UTC days ending today; a range without events is all zeros', async () => {
    const r = await report();
    expect([r.from, r.to, r.days.length]).toEqual([day(-29), day(0), 30]);
    expect(r.totals.wallLoads).toBe(5); // the load 40 days ago is outside
    const onlyTo = await report(`?to=${day(-10)}`);
    expect([onlyTo.from, onlyTo.to]).toEqual([day(-39), day(-10)]);
    const past = await report(`?from=${day(-41)}&to=${day(-41)}`);
    expect(past.totals).toEqual({ wallLoads: 0, impressions: 0, clicks: 0, ctaClicks: 0, productClicks: 0, ctr: 0 });
    expect(past.topPosts).toEqual([]);
    const old = await report(`?from=${day(-40)}&to=${day(-40)}`);
    expect(old.totals.wallLoads).toBe(1);
    expect((await report(`?from=${day(-365)}&to=${day(0)}`)).days).toHaveLength(366);
  });

  it('refuses bad ranges with fieldErrors, and unknown walls and products with a 404', async () => {
    const bad = async (query: string, fields: string[], message: RegExp) => {
      const res = await s.manage('GET', `/walls/7011/analytics${query}`);
      expect(res.status, res.text).toBe(400);
      const body = res.json() as { responseMessage: string; fieldErrors: { field: string }[] };
      expect(body.fieldErrors.map((e) => e.field)).toEqual(fields);
      expect(body.responseMessage).toMatch(message);
    };
    await bad(`?from=${day(0)}&to=${day(-1)}`, ['from'], /from must not be after to/);
    await bad('?from=2026-02-30', ['from'], /from must be a day as YYYY-MM-DD/);
    await bad('?from=2026/01/01&to=yesterday', ['from', 'to'], /YYYY-MM-DD/);
    await bad('?to=2026-13-01', ['to'], /to must be a day/);
    await bad(`?from=${day(-366)}&to=${day(0)}`, ['from'], /at most 366 days/);
    await bad('?since=2026-01-01', ['since'], /not a known field/);
    expect((await s.manage('GET', '/walls/999999/analytics')).status).toBe(404);
    expect((await s.manage('GET', '/products/999999/analytics')).status).toBe(404);
    expect((await s.manage('GET', `/products/7501/analytics?from=${day(1)}&to=${day(0)}`)).status).toBe(400);
  });

  it('as CSV with Accept: text/csv: the days, a header row, a download named after the wall and range', async () => {
    const res = await call(s.srv.baseUrl, `${MANAGE}/walls/7011/analytics`, {
      query: { from: day(-2), to: day(0) },
      headers: { authorization: `Bearer ${s.token}`, accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="wall-7011-analytics-${day(-2)}-to-${day(0)}.csv"`,
    );
    expect(res.text).toBe(
      [
        'day,wallLoads,impressions,clicks,ctaClicks,productClicks,ctr',
        `${day(-2)},1,1,1,0,0,1`,
        `${day(-1)},0,0,0,0,0,0`,
        `${day(0)},4,11,0,1,4,0.4545`,
        '',
      ].join('\n'),
    );
    // JSON when JSON is preferred or anything goes
    for (const accept of ['application/json', '*/*', 'application/json, text/csv;q=0.5']) {
      const json = await call(s.srv.baseUrl, `${MANAGE}/walls/7011/analytics`, {
        headers: { authorization: `Bearer ${s.token}`, accept },
      });
      expect(json.contentType, accept).toMatch(/^application\/json/);
    }
  });

  it('a product’s: clicks in total, every day, per wall', async () => {
    const res = await s.manage('GET', `/products/7502/analytics?from=${day(-1)}&to=${day(0)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json().responseData).toEqual({
      productId: 7502,
      from: day(-1),
      to: day(0),
      totals: { productClicks: 3 },
      days: [
        { day: day(-1), productClicks: 0 },
        { day: day(0), productClicks: 3 },
      ],
      walls: [{ wallId: 7011, productClicks: 3 }],
    });
    const none = await s.manage('GET', '/products/7506/analytics');
    expect(none.json().responseData).toMatchObject({ totals: { productClicks: 0 }, walls: [] });
  });

  it('any role may read them; a token scoped to another account gets a 404', async () => {
    const op = { db: s.srv.store.db, actor: CLI_ACTOR, now: NOW };
    const viewer = await createOperatorToken(op, { name: 'analytics-viewer', role: 'viewer' });
    const other = await createOperatorToken(op, { name: 'analytics-other', role: 'admin', accounts: [7002] });
    const as = (token: string, path: string) =>
      call(s.srv.baseUrl, MANAGE + path, { headers: { authorization: `Bearer ${token}` } });
    expect((await as(viewer.token, '/walls/7011/analytics')).status).toBe(200);
    expect((await as(viewer.token, '/products/7501/analytics')).status).toBe(200);
    expect((await as(other.token, '/walls/7011/analytics')).status).toBe(404);
    expect((await as(other.token, '/products/7501/analytics')).status).toBe(404);
    expect((await as(other.token, '/walls/7013/analytics')).status).toBe(200);
    expect((await as('wrong', '/walls/7011/analytics')).status).toBe(401);
  });
});
