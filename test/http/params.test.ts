// Contract §4: the parameters of the post lists (C2, W2) — limit, offset,
// date_from, the media flags — the order of posts and hidden posts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commerceList,
  listed,
  wallOf,
  widgetList,
  type ListOptions,
  type MediaKind,
  type SampleData,
  type SamplePost,
} from '../helpers/expect.js';
import { expectError, expectJsonData, get, KEYS, MSG } from '../helpers/http.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { childElements, childText, type XEl } from '../helpers/xml.js';

const FORMATS = ['json', 'xml'] as const;
const FAMILIES = ['widget', 'commerce'] as const;
type Family = (typeof FAMILIES)[number];

const listPath = (family: Family, wallId: number) =>
  family === 'widget' ? `/api/v2/widget/posts/${wallId}` : `/api/v2/commerce/getGalleryPosts/${wallId}/`;

/** The sample plus one big wall (account 7001) of 620 posts, to exercise the limits. */
function withBigWall(data: SampleData): SampleData {
  const base = wallOf(data, 7011).feeds[0]?.posts[0] as SamplePost;
  const posts: SamplePost[] = [];
  for (let i = 0; i < 620; i++) {
    posts.push({
      ...base,
      id: 30000 + i,
      content: `big ${i}`,
      pin: 0,
      hidden: false,
      cta: null,
      children: [],
      products: [],
      // one post per hour, newest has the largest id
      createdAt: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
      updatedAt: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
    });
  }
  return {
    ...data,
    walls: [
      ...data.walls,
      {
        id: 7090,
        accountId: 7001,
        name: 'Big Wall',
        url: 'big-wall',
        profanity: 1,
        createdAt: '2024-02-29T23:59:59.000Z',
        feeds: [
          {
            id: 7190,
            name: 'Big feed',
            source: 'RSS',
            sourceType: 'page',
            createdAt: null,
            updatedAt: '2024-02-29T00:00:00.000Z',
            posts,
          },
        ],
      },
    ],
  };
}

describeSample('post list parameters of contract §4', () => {
  let srv: TestServer;
  let data: SampleData;
  beforeAll(async () => {
    data = withBigWall(sample());
    srv = await startTestServer({ data, now: NOW });
  });
  afterAll(async () => {
    await srv?.close();
  });

  /** the key of the wall's owner: 7013 is the widget account's, 7014 the commerce account's */
  const keyFor = (wallId: number) => (wallId === 7013 ? KEYS.wid : wallId === 7014 ? KEYS.com : KEYS.ent);
  /** the second sample wall each family can read */
  const ownWall = (family: Family) => (family === 'widget' ? 7013 : 7014);

  const list = (family: Family, wallId: number, query: Record<string, string> = {}, format?: string) =>
    get(srv.baseUrl, listPath(family, wallId), { user_key: keyFor(wallId), format, ...query });

  const ids = async (family: Family, wallId: number, query: Record<string, string> = {}) => {
    const res = await list(family, wallId, query);
    expect(res.status).toBe(200);
    const rd = (res.json() as { responseData: Record<string, { postId: number | string }[]>[] }).responseData;
    expect(rd).toHaveLength(1);
    const items = (family === 'widget' ? rd[0]?.posts : rd[0]?.feeds) ?? [];
    return items.map((p) => Number(p.postId));
  };

  const expectedIds = (wallId: number, options: ListOptions) =>
    listed(wallOf(data, wallId), options).map((l) => l.post.id);

  const expectList = async (family: Family, wallId: number, query: Record<string, string>, options: ListOptions) => {
    const res = await list(family, wallId, query);
    const wall = wallOf(data, wallId);
    expectJsonData(res, family === 'widget' ? widgetList(wall, 'json', options) : commerceList(wall, options));
  };

  describe('limit', () => {
    it.each(FAMILIES)('%s: default 100', async (family) => {
      expect(await ids(family, 7090)).toEqual(expectedIds(7090, { limit: 100 }));
      expect(await ids(family, 7090)).toHaveLength(100);
    });

    it.each(FAMILIES)('%s: maximum 500', async (family) => {
      expect(await ids(family, 7090, { limit: '500' })).toHaveLength(500);
      expect(await ids(family, 7090, { limit: '500' })).toEqual(expectedIds(7090, { limit: 500 }));
    });

    it.each(FAMILIES)('%s: limit=1 and limit=37 return exactly that many, the first ones', async (family) => {
      expect(await ids(family, 7011, { limit: '1' })).toEqual(expectedIds(7011, { limit: 1 }));
      expect(await ids(family, 7011, { limit: '37' })).toEqual(expectedIds(7011, { limit: 37 }));
    });

    const bad = [
      '0',
      '501',
      'abc',
      '1.5',
      '-1',
      '',
      ' 1',
      '1 ',
      '+1',
      '1e2',
      '0x10',
      '５',
      '1000000000000000000000',
      '100abc',
    ];
    it.each(FAMILIES.flatMap((family) => FORMATS.flatMap((format) => bad.map((v) => [family, format, v] as const))))(
      '%s (%s): limit=%j → 400 "limit must be an integer from 1 to 500"',
      async (family, format, value) => {
        expectError(await list(family, 7011, { limit: value }, format), format, 400, MSG.limit);
      },
    );

    it('repeated limit → 400', async () => {
      const res = await get(srv.baseUrl, '/api/v2/widget/posts/7011', `user_key=${KEYS.ent}&limit=1&limit=2`);
      expectError(res, 'json', 400, MSG.limit);
    });
  });

  describe('offset', () => {
    it.each(FAMILIES)('%s: default 0 equals offset=0', async (family) => {
      expect(await ids(family, 7011, { offset: '0' })).toEqual(await ids(family, 7011));
    });

    it.each(FAMILIES)('%s: counts from zero — offset=1 drops exactly the first post', async (family) => {
      const all = await ids(family, 7011, { limit: '500' });
      expect(await ids(family, 7011, { offset: '1', limit: '500' })).toEqual(all.slice(1));
      expect(await ids(family, 7011, { offset: '56', limit: '500' })).toEqual(all.slice(56));
      expect(all.slice(56)).toHaveLength(1);
    });

    it.each(FAMILIES)('%s: pages of 7 put end to end give the whole list', async (family) => {
      const all = await ids(family, 7011, { limit: '500' });
      const pages: number[] = [];
      for (let offset = 0; offset < all.length + 7; offset += 7) {
        pages.push(...(await ids(family, 7011, { offset: String(offset), limit: '7' })));
      }
      expect(pages).toEqual(all);
    });

    it.each(FAMILIES)('%s: offset past the end → 200 with the wall and an empty list', async (family) => {
      await expectList(family, 7011, { offset: '57' }, { offset: 57 });
      await expectList(family, 7090, { offset: '999999999999' }, { offset: 999999999999 });
      expect(await ids(family, 7090, { offset: '600', limit: '500' })).toHaveLength(20);
    });

    const bad = ['-1', 'abc', '1.5', '', '+1', ' 0', '1e3'];
    it.each(FAMILIES.flatMap((family) => FORMATS.flatMap((format) => bad.map((v) => [family, format, v] as const))))(
      '%s (%s): offset=%j → 400 naming offset',
      async (family, format, value) => {
        expectError(await list(family, 7011, { offset: value }, format), format, 400, /offset/);
      },
    );
  });

  describe('date_from', () => {
    it.each(FAMILIES)(
      '%s: keeps posts at or after 00:00:00 UTC of the day (17001 is at 2024-07-17T00:00Z)',
      async (family) => {
        const on = await ids(family, 7011, { date_from: '17/07/2024', limit: '500' });
        expect(on).toContain(17001);
        expect(on).toEqual(expectedIds(7011, { dateFrom: '17/07/2024', limit: 500 }));
        const after = await ids(family, 7011, { date_from: '18/07/2024', limit: '500' });
        expect(after).not.toContain(17001);
        expect(after).toEqual(expectedIds(7011, { dateFrom: '18/07/2024', limit: 500 }));
        expect(on.length - after.length).toBe(1);
      },
    );

    it.each(FAMILIES)('%s: day first — 01/12/2024 is 1 December, not 12 January', async (family) => {
      const got = await ids(family, 7011, { date_from: '01/12/2024', limit: '500' });
      expect(got).toEqual(expectedIds(7011, { dateFrom: '01/12/2024', limit: 500 }));
      expect(got).toContain(17010); // 2024-12-01T23:14Z
      expect(got).not.toContain(17040); // 2024-09-07
    });

    it.each(FAMILIES)('%s: full lists with date_from in both families', async (family) => {
      for (const d of ['01/01/2020', '29/02/2024', '15/12/2025', '16/12/2025', '01/01/2030']) {
        await expectList(family, 7011, { date_from: d }, { dateFrom: d });
      }
    });

    it.each(FAMILIES)('%s: a date after every post → wall object and empty list', async (family) => {
      await expectList(family, 7011, { date_from: '01/01/2030' }, { dateFrom: '01/01/2030' });
      expect(await ids(family, 7011, { date_from: '01/01/2030' })).toEqual([]);
    });

    const bad = [
      '31/02/2024',
      '29/02/2023',
      '2024-01-01',
      '13/13/2024',
      '01/13/2024',
      '32/01/2024',
      '00/01/2024',
      '01/00/2024',
      '1/1/2024',
      '01/01/24',
      '01-01-2024',
      '01/01/2024 ',
      '',
      'abc',
      '00/00/0000',
    ];
    it.each(FAMILIES.flatMap((family) => FORMATS.flatMap((format) => bad.map((v) => [family, format, v] as const))))(
      '%s (%s): date_from=%j → 400 naming date_from',
      async (family, format, value) => {
        expectError(await list(family, 7011, { date_from: value }, format), format, 400, /date_from/);
      },
    );
  });

  describe('media flags', () => {
    const kindsOf = (query: Record<string, string>, family: Family): MediaKind[] => {
      const on = (v: string | undefined) => v !== undefined && ['true', '1'].includes(v.toLowerCase());
      const kinds: MediaKind[] = [];
      if (on(query.include_only_image_posts)) kinds.push('image');
      if (on(query.include_only_video_posts)) kinds.push('video');
      if (family === 'widget' && on(query.include_only_text_posts)) kinds.push('text');
      return kinds;
    };

    const combos: Record<string, string>[] = [
      { include_only_image_posts: 'true' },
      { include_only_video_posts: 'true' },
      { include_only_text_posts: 'true' },
      { include_only_image_posts: 'TRUE' },
      { include_only_video_posts: 'True' },
      { include_only_text_posts: '1' },
      { include_only_image_posts: '1' },
      { include_only_image_posts: 'false' },
      { include_only_video_posts: '0' },
      { include_only_text_posts: 'FALSE' },
      { include_only_image_posts: 'true', include_only_video_posts: 'true' },
      { include_only_image_posts: 'true', include_only_text_posts: 'true' },
      { include_only_video_posts: '1', include_only_text_posts: 'tRuE' },
      { include_only_image_posts: 'true', include_only_video_posts: 'true', include_only_text_posts: 'true' },
      { include_only_image_posts: 'true', include_only_video_posts: 'false' },
      { include_only_image_posts: '0', include_only_video_posts: '0', include_only_text_posts: '0' },
    ];

    it.each(FAMILIES.flatMap((family) => combos.map((q) => [family, JSON.stringify(q), q] as const)))(
      '%s: %s → exactly the union of the kinds named',
      async (family, _name, query) => {
        const kinds = kindsOf(query, family);
        await expectList(family, 7011, { ...query, limit: '500' }, { kinds, limit: 500 });
        await expectList(family, ownWall(family), { ...query }, { kinds });
      },
    );

    it('the kinds really differ in the sample (the flags are not vacuous)', () => {
      const wall = wallOf(data, 7011);
      const n = (kinds: MediaKind[]) => listed(wall, { kinds, limit: 500 }).length;
      expect([n(['image']), n(['video']), n(['text'])].every((x) => x > 0)).toBe(true);
      expect(n(['image']) + n(['video']) + n(['text'])).toBe(n([]));
    });

    it('widget: image only returns only image posts, each with non-empty postFile', async () => {
      const res = await list('widget', 7011, { include_only_image_posts: 'true', limit: '500' });
      const posts =
        (res.json() as { responseData: { posts: Record<string, unknown>[] }[] }).responseData[0]?.posts ?? [];
      expect(posts.length).toBeGreaterThan(0);
      for (const p of posts) expect(p.postFile).not.toBe('');
    });

    it('C2 ignores include_only_text_posts, even an invalid value', async () => {
      await expectList('commerce', 7011, { include_only_text_posts: 'true', limit: '500' }, { limit: 500 });
      await expectList('commerce', 7011, { include_only_text_posts: 'banana', limit: '500' }, { limit: 500 });
      await expectList(
        'commerce',
        7011,
        { include_only_text_posts: 'true', include_only_video_posts: 'true' },
        { kinds: ['video'] },
      );
    });

    const badFlags = ['yes', 'no', '2', '', 'tru', 'true ', 't', 'on', '01'];
    const flagNames = (family: Family) =>
      family === 'widget'
        ? ['include_only_image_posts', 'include_only_video_posts', 'include_only_text_posts']
        : ['include_only_image_posts', 'include_only_video_posts'];
    it.each(
      FAMILIES.flatMap((family) =>
        flagNames(family).flatMap((flag) => badFlags.map((v) => [family, flag, v] as const)),
      ),
    )('%s: %s=%j → 400 naming the flag', async (family, flag, value) => {
      expectError(await list(family, 7011, { [flag]: value }), 'json', 400, new RegExp(flag));
    });

    it.each(FAMILIES)('%s: a bad flag in XML → XML 400', async (family) => {
      expectError(
        await list(family, 7011, { include_only_video_posts: 'maybe' }, 'xml'),
        'xml',
        400,
        /include_only_video_posts/,
      );
    });
  });

  describe('order and hidden posts', () => {
    it.each(FAMILIES)('%s: pinned posts first, newest first among them (literal ids)', async (family) => {
      const got = await ids(family, 7011, { limit: '500' });
      expect(got.slice(0, 6)).toEqual([17025, 17034, 17012, 17056, 17018, 17020]);
      expect(got).toEqual(expectedIds(7011, { limit: 500 }));
    });

    it.each(FAMILIES)('%s: equal createdAt → larger id first (tie-break)', async (family) => {
      const got = await ids(family, 7011, { limit: '500' });
      // pairs with the same createdAt in the sample: [larger, smaller]
      for (const [a, b] of [
        [17058, 17055],
        [17032, 17029],
        [17006, 17003],
        [17045, 17042],
      ] as const) {
        expect(got.indexOf(a)).toBeGreaterThanOrEqual(0);
        expect(got.indexOf(a) + 1).toBe(got.indexOf(b));
      }
      const other = await ids(family, ownWall(family), { limit: '500' });
      const pairs =
        family === 'widget'
          ? [[17079, 17076]]
          : [
              [17104, 17102],
              [17091, 17089],
            ];
      for (const [a, b] of pairs as [number, number][]) {
        expect(other.indexOf(a)).toBeGreaterThanOrEqual(0);
        expect(other.indexOf(a) + 1).toBe(other.indexOf(b));
      }
      expect(other).toEqual(expectedIds(ownWall(family), { limit: 500 }));
    });

    it.each(FAMILIES)('%s: the order is pinned, createdAt desc, id desc all the way down', async (family) => {
      const got = await ids(family, 7011, { limit: '500' });
      const byId = new Map(listed(wallOf(data, 7011), { limit: 500 }).map((l) => [l.post.id, l.post]));
      for (let i = 1; i < got.length; i++) {
        const a = byId.get(got[i - 1] as number) as SamplePost;
        const b = byId.get(got[i] as number) as SamplePost;
        const key = (p: SamplePost) => [p.pin, Date.parse(p.createdAt), p.id];
        const [ka, kb] = [key(a), key(b)];
        const cmp =
          (ka[0] as number) - (kb[0] as number) ||
          (ka[1] as number) - (kb[1] as number) ||
          (ka[2] as number) - (kb[2] as number);
        expect(cmp).toBeGreaterThan(0);
      }
    });

    it.each(FAMILIES)('%s: hidden posts never appear, whatever the filters', async (family) => {
      const hidden = [17016, 17027, 17057, 17086, 17090];
      const queries: Record<string, string>[] = [
        { limit: '500' },
        { limit: '500', include_only_text_posts: 'true' },
        { limit: '500', include_only_video_posts: 'true' },
        { limit: '500', include_only_image_posts: 'true' },
        { limit: '500', date_from: '01/01/2020' },
      ];
      for (const wallId of [7011, ownWall(family)]) {
        for (const q of queries) {
          const got = await ids(family, wallId, q);
          for (const h of hidden) expect(got).not.toContain(h);
        }
      }
    });

    it('widget XML lists the same ids in the same order as JSON', async () => {
      const json = await ids('widget', 7011, { limit: '500' });
      const doc = (await list('widget', 7011, { limit: '500' }, 'xml')).xml();
      const rd = childElements(doc.children, 'responseData')[0] as XEl[];
      expect((childElements(rd, 'posts') as XEl[][]).map((p) => Number(childText(p, 'postId')))).toEqual(json);
    });
  });

  describe('combinations', () => {
    it.each(FAMILIES)('%s: date_from + flags + limit + offset together', async (family) => {
      const cases: [Record<string, string>, ListOptions][] = [
        [
          { date_from: '01/01/2024', include_only_image_posts: 'true', limit: '5', offset: '2' },
          { dateFrom: '01/01/2024', kinds: ['image'], limit: 5, offset: 2 },
        ],
        [
          { date_from: '01/06/2024', include_only_video_posts: '1', offset: '1' },
          { dateFrom: '01/06/2024', kinds: ['video'], offset: 1 },
        ],
        [
          { date_from: '01/06/2024', include_only_image_posts: '1', include_only_video_posts: 'true', limit: '10' },
          { dateFrom: '01/06/2024', kinds: ['image', 'video'], limit: 10 },
        ],
      ];
      for (const [q, o] of cases) await expectList(family, 7011, q, o);
    });

    it('unknown query parameters are ignored', async () => {
      await expectList('widget', 7011, { foo: 'bar', Limit: 'x', LIMIT: '0' }, {});
      await expectList('commerce', 7011, { foo: 'bar', wallId: '7012' }, {});
    });
  });
});
