// POST /api/embed/v1/events: beacons as browsers send them (text/plain or
// JSON), refused when malformed, dropped (still 202) when they come from a
// bot, repeat a beacon or an impression of the same page view, or name posts
// not on the wall; counted per wall, post, product and UTC day after a flush.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { utcDay } from '../../../src/domain/dates.js';
import { eventually } from '../../helpers/poll.js';
import { NOW, describeSample } from '../../helpers/sample.js';
import { embedError, startEmbedServer, type EmbedServer } from '../embed/helpers.js';
import { beacon, counters, flush, newView } from './helpers.js';

const DAY = utcDay(NOW);

describeSample('analytics beacons', () => {
  let s: EmbedServer;
  let key: string;
  beforeAll(async () => {
    s = await startEmbedServer();
    key = (await s.makeKey(7011)).key;
  });
  afterAll(async () => s?.close());

  it('are accepted as text/plain and as JSON (202 {}), and counted per day, post and product after a flush', async () => {
    const view = newView();
    const res = await beacon(s.srv.baseUrl, key, {
      view,
      events: [
        { type: 'wall_load' },
        { type: 'impression', postId: '17001' },
        { type: 'impression', postId: '17010' },
        { type: 'click', postId: '17001' },
        { type: 'cta_click', postId: '17010' },
        { type: 'product_click', postId: '17010', productId: 7502 },
        { type: 'product_click', productId: 7501 },
      ],
    });
    expect(res.status, res.text).toBe(202);
    expect(res.json()).toEqual({});
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('set-cookie')).toBeNull();
    const json = await beacon(
      s.srv.baseUrl,
      key,
      { events: [{ type: 'click', postId: '17001' }] },
      { 'content-type': 'application/json' },
    );
    expect(json.status).toBe(202);
    await flush(s);
    const row = (type: string, post: number, product: number, n: number) => ({
      wall_id: 7011,
      day: DAY,
      type,
      post_id: post,
      product_id: product,
      n,
    });
    expect(await counters(s.srv.store.db, 7011)).toEqual([
      row('click', 17001, 0, 2),
      row('cta_click', 17010, 0, 1),
      row('impression', 17001, 0, 1),
      row('impression', 17010, 0, 1),
      row('product_click', 0, 7501, 1),
      row('product_click', 17010, 7502, 1),
      row('wall_load', 0, 0, 1),
    ]);
  });

  it('refuse malformed bodies with a 400 in the embed envelope', async () => {
    const event = { type: 'click', postId: '17001' };
    const cases: [unknown, RegExp][] = [
      ['{"events": [', /valid JSON/],
      ['', /JSON object|valid JSON/],
      [[event], /JSON object/],
      [{}, /events is required/],
      [{ events: [] }, /1 to 50 events/],
      [{ events: Array.from({ length: 51 }, () => event) }, /1 to 50 events/],
      [{ events: [{ type: 'hover', postId: '17001' }] }, /1 to 50 events/],
      [{ events: [{ type: 'click', postId: 17001 }] }, /1 to 50 events/],
      [{ events: [{ type: 'product_click', productId: '7501' }] }, /1 to 50 events/],
      [{ events: [event, { type: 'impression' }] }, /events\[1\]\.postId is required for an impression/],
      [{ events: [{ type: 'product_click', postId: '17001' }] }, /events\[0\]\.productId is required/],
      [{ events: [event], view: 'short' }, /view must be 8 to 64/],
      [{ events: [event], view: 'has spaces in it' }, /view must be 8 to 64/],
    ];
    for (const [body, message] of cases) embedError(await beacon(s.srv.baseUrl, key, body), 400, message);
    // exactly 50 is fine; fields a beacon does not know are ignored
    const fifty = await beacon(s.srv.baseUrl, key, {
      events: Array.from({ length: 50 }, () => ({ ...event, extra: 1 })),
      sentAt: 5,
    });
    expect(fifty.status, fifty.text).toBe(202);
  });

  it('drop events naming a post or product not on the wall, and count the rest', async () => {
    await flush(s);
    const before = await counters(s.srv.store.db, 7011);
    const res = await beacon(s.srv.baseUrl, key, {
      events: [
        { type: 'click', postId: '17061' }, // a post of wall 7013
        { type: 'click', postId: '999999' }, // no such post
        { type: 'product_click', productId: 7505 }, // a product of another wall
        { type: 'product_click', postId: '17061', productId: 7501 },
        { type: 'cta_click', postId: '17004' }, // counted
      ],
    });
    expect(res.status).toBe(202);
    await flush(s);
    const after = await counters(s.srv.store.db, 7011);
    const changed = after.filter((r) => !before.some((b) => JSON.stringify(b) === JSON.stringify(r)));
    expect(changed).toEqual([{ wall_id: 7011, day: DAY, type: 'cta_click', post_id: 17004, product_id: 0, n: 1 }]);
    expect(await counters(s.srv.store.db, 7013)).toEqual([]);
  });

  it('drop what bots send, with a 202 all the same', async () => {
    const before = await counters(s.srv.store.db);
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'curl/8.5.0',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    ]) {
      const res = await beacon(
        s.srv.baseUrl,
        key,
        { events: [{ type: 'click', postId: '17001' }] },
        { 'user-agent': ua },
      );
      expect(res.status).toBe(202);
      expect(res.json()).toEqual({});
    }
    await flush(s);
    expect(await counters(s.srv.store.db)).toEqual(before);
  });

  it('drop a beacon sent again, and an impression or wall load repeated in the same page view', async () => {
    const view = newView();
    const body = {
      view,
      events: [{ type: 'wall_load' }, { type: 'impression', postId: '17007' }, { type: 'click', postId: '17007' }],
    };
    await flush(s);
    const before = await counters(s.srv.store.db, 7011);
    expect((await beacon(s.srv.baseUrl, key, body)).status).toBe(202);
    expect((await beacon(s.srv.baseUrl, key, body)).status).toBe(202); // a resend: nothing counted
    // the same view again: the impression and the wall load are repeats, the click is not
    const again = await beacon(s.srv.baseUrl, key, {
      view,
      events: [{ type: 'impression', postId: '17007' }, { type: 'wall_load' }, { type: 'click', postId: '17007' }],
    });
    expect(again.status).toBe(202);
    // another page view counts its impression; without a view id nothing is deduplicated
    await beacon(s.srv.baseUrl, key, { view: newView(), events: [{ type: 'impression', postId: '17007' }] });
    await beacon(s.srv.baseUrl, key, { events: [{ type: 'impression', postId: '17007' }] });
    await beacon(s.srv.baseUrl, key, { events: [{ type: 'impression', postId: '17007' }] });
    await flush(s);
    const n = (rows: Awaited<ReturnType<typeof counters>>, type: string, post: number) =>
      rows.find((r) => r.type === type && r.post_id === post)?.n ?? 0;
    const after = await counters(s.srv.store.db, 7011);
    expect(n(after, 'impression', 17007) - n(before, 'impression', 17007)).toBe(4);
    expect(n(after, 'click', 17007) - n(before, 'click', 17007)).toBe(2);
    expect(n(after, 'wall_load', 0) - n(before, 'wall_load', 0)).toBe(1);
  });

  it('follow the key’s origin rules, with the embed’s CORS headers', async () => {
    const shop = await s.makeKey(7011, ['https://shop.example']);
    const event = { events: [{ type: 'click', postId: '17001' }] };
    const ok = await beacon(s.srv.baseUrl, shop.key, event, { origin: 'https://shop.example' });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    embedError(await beacon(s.srv.baseUrl, shop.key, event, { origin: 'https://evil.example' }), 403, /origin/);
    embedError(await beacon(s.srv.baseUrl, 'pk_unknown', event), 401);
    // a preflight (fetch with application/json) is allowed for the key's origins
    const preflight = await fetch(`${s.srv.baseUrl}/api/embed/v1/events?key=${shop.key}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
  });

  it('count for the key’s wall only; a deleted wall’s key gets a 404; a purge takes the counters', async () => {
    const other = await s.makeKey(7013);
    expect((await beacon(s.srv.baseUrl, other.key, { events: [{ type: 'click', postId: '17061' }] })).status).toBe(202);
    await flush(s);
    expect((await counters(s.srv.store.db, 7013)).map((r) => [r.type, r.post_id, r.n])).toEqual([['click', 17061, 1]]);
    const wall = await s.manage('POST', '/walls', { accountId: 7001, name: 'Going away', url: 'going-away' });
    const wallId = (wall.json().responseData as { id: number }).id;
    const gone = await s.makeKey(wallId);
    expect((await beacon(s.srv.baseUrl, gone.key, { events: [{ type: 'wall_load' }] })).status).toBe(202);
    await flush(s);
    expect(await counters(s.srv.store.db, wallId)).toHaveLength(1);
    expect((await s.manage('DELETE', `/walls/${wallId}`)).status).toBe(200);
    // within the seconds a wall's liveness is remembered
    await eventually(
      'beacons of a deleted wall refused',
      async () => (await beacon(s.srv.baseUrl, gone.key, { events: [{ type: 'wall_load' }] })).status,
      (status) => status === 404,
      30_000,
    );
    embedError(await beacon(s.srv.baseUrl, gone.key, { events: [{ type: 'wall_load' }] }), 404);
    // the counters go with a purged wall
    expect((await s.manage('POST', `/walls/${wallId}/purge`)).status).toBe(200);
    expect(await counters(s.srv.store.db, wallId)).toEqual([]);
    // counts of it still in memory are dropped at the next flush, the others written
    const aggregator = s.srv.app.ctx.analytics!.aggregator;
    const loads = async () => (await counters(s.srv.store.db, 7016)).find((r) => r.type === 'wall_load')?.n ?? 0;
    const before = await loads();
    aggregator.add({ wallId, day: DAY, type: 'wall_load', postId: 0, productId: 0 });
    aggregator.add({ wallId: 7016, day: DAY, type: 'wall_load', postId: 0, productId: 0 }, 2);
    await aggregator.flush();
    expect(aggregator.pendingCounters).toBe(0);
    expect(await counters(s.srv.store.db, wallId)).toEqual([]);
    expect(await loads()).toBe(before + 2);
  });
});

describeSample('analytics beacons: rate limits and shutdown', () => {
  it('are limited per IP and per key (429 in the envelope with Retry-After), apart from the read limits', async () => {
    const s = await startEmbedServer({
      embed: { analyticsRateLimitPerIp: 3, analyticsRateLimitPerKey: 1000, rateLimitPerIp: 2 },
    });
    try {
      const { key } = await s.makeKey(7011);
      const event = { events: [{ type: 'click', postId: '17001' }] };
      for (let i = 0; i < 3; i++) expect((await beacon(s.srv.baseUrl, key, event)).status).toBe(202);
      const limited = await beacon(s.srv.baseUrl, key, event);
      embedError(limited, 429, /Too many requests/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('access-control-allow-origin')).toBe('*');
      // the reads have their own budget
      expect((await s.embed('/walls/7011', { key })).status).toBe(200);
    } finally {
      await s.close();
    }
    const k = await startEmbedServer({ embed: { analyticsRateLimitPerKey: 2 } });
    try {
      const { key } = await k.makeKey(7011);
      const other = await k.makeKey(7011);
      const event = { events: [{ type: 'wall_load' }] };
      for (let i = 0; i < 2; i++) expect((await beacon(k.srv.baseUrl, key, event)).status).toBe(202);
      embedError(await beacon(k.srv.baseUrl, key, event), 429);
      expect((await beacon(k.srv.baseUrl, other.key, event)).status).toBe(202);
    } finally {
      await k.close();
    }
  });

  it('are written when the server closes, however long the flush interval', async () => {
    const s = await startEmbedServer({ embed: { analyticsFlushMs: 60_000 } });
    const { key } = await s.makeKey(7011);
    for (let i = 0; i < 3; i++)
      expect((await beacon(s.srv.baseUrl, key, { events: [{ type: 'click', postId: '17019' }] })).status).toBe(202);
    const db = s.srv.store.db;
    expect(await counters(db, 7011)).toEqual([]);
    // close the server, not the store: the counts are written on the way down
    await s.srv.app.close();
    expect(await counters(db, 7011)).toEqual([
      { wall_id: 7011, day: DAY, type: 'click', post_id: 17019, product_id: 0, n: 3 },
    ]);
    await s.close();
  });
});
