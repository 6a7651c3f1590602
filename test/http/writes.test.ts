// Contract §7: create a custom post (C3, W3) and delete a wall (C4, W4).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dmy } from '../helpers/expect.js';
import { call, expectError, expectJsonMessage, get, KEYS, MSG } from '../helpers/http.js';
import { OPS, runOp } from '../helpers/ops.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Family = 'widget' | 'commerce';
const CREATE = { widget: '/api/v2/widget/create-post', commerce: '/api/v2/commerce/createGalleryPost' } as const;
const FAMILIES: Family[] = ['widget', 'commerce'];

interface WidgetItem {
  postId: string;
  feedId: number;
  content: string;
  [k: string]: unknown;
}
interface FeedInfo {
  feedId: number;
  feedName: string;
  source: string;
  sourceType: string;
  feedCreatedAt: string | null;
  feedUpdatedAt: string;
}

describeSample('writes of contract §7', () => {
  // Each block below sets `srv`: a fresh server per test where a test needs a
  // pristine store, one shared server where tests only compare before/after.
  let srv: TestServer;
  const fresh = () => {
    beforeEach(async () => {
      srv = await startTestServer({ data: sample(), now: NOW });
    });
    afterEach(async () => {
      await srv?.close();
    });
  };
  const shared = () => {
    beforeAll(async () => {
      srv = await startTestServer({ data: sample(), now: NOW });
    });
    afterAll(async () => {
      await srv?.close();
    });
  };

  const create = (
    family: Family,
    body: unknown,
    options: { key?: string; headers?: Record<string, string>; format?: string } = {},
  ) =>
    call(srv.baseUrl, CREATE[family], {
      query: { user_key: options.key ?? KEYS.ent, format: options.format },
      body,
      headers: options.headers,
    });

  const widgetPosts = async (
    wallId: number,
    query: Record<string, string> = {},
    key: string = KEYS.ent,
  ): Promise<WidgetItem[]> => {
    const res = await get(srv.baseUrl, `/api/v2/widget/posts/${wallId}`, { user_key: key, limit: '500', ...query });
    expect(res.status).toBe(200);
    return ((res.json() as { responseData: { posts: WidgetItem[] }[] }).responseData[0]?.posts ?? []) as WidgetItem[];
  };

  const commercePosts = async (wallId: number, query: Record<string, string> = {}, key: string = KEYS.ent) => {
    const res = await get(srv.baseUrl, `/api/v2/commerce/getGalleryPosts/${wallId}/`, {
      user_key: key,
      limit: '500',
      ...query,
    });
    expect(res.status).toBe(200);
    return (res.json() as { responseData: { feeds: Record<string, unknown>[] }[] }).responseData[0]?.feeds ?? [];
  };

  const count7012 = async () => (await widgetPosts(7012)).length;
  const newest7012 = async () => (await widgetPosts(7012, { limit: '1' }))[0] as WidgetItem;

  const feedsOf = async (wallId: number, key: string = KEYS.ent): Promise<FeedInfo[]> => {
    const res = await get(srv.baseUrl, `/api/v2/widget/wallInfo/${wallId}`, { user_key: key });
    expect(res.status).toBe(200);
    return ((res.json() as { responseData: { feeds: FeedInfo[] }[] }).responseData[0]?.feeds ?? []) as FeedInfo[];
  };

  describe('create', () => {
    fresh();
    it.each(FAMILIES)('%s: a text post (content only) appears in W2 with every field', async (family) => {
      expectJsonMessage(await create(family, { wallId: 7012, content: 'first <b>post</b> & more' }), MSG.created);
      const posts = await widgetPosts(7012);
      expect(posts).toHaveLength(1);
      const feeds = await feedsOf(7012);
      const custom = feeds.find((f) => f.source === 'Custom');
      expect(custom).toBeDefined();
      const p = posts[0] as WidgetItem;
      expect(Object.keys(p)).toEqual([
        'feedId',
        'feedName',
        'postPicture',
        'wallProfanity',
        'networkName',
        'postId',
        'content',
        'postFile',
        'postFileOriginal',
        'postFileThumb',
        'postMediaFile',
        'rating',
        'postPin',
        'postCreatedAt',
        'postUpdatedAt',
        'postTags',
        'location',
        'postLinkUrl',
        'postAuthorName',
        'postUsername',
        'postUserPicture',
        'PostType',
        'postHighlight',
        'CTAcolor',
        'CTAbackground',
        'CTAStatus',
        'CTAurl',
        'CTAtext',
        'childNode',
      ]);
      expect(p).toMatchObject({
        feedId: custom?.feedId,
        feedName: custom?.feedName,
        wallProfanity: 0,
        networkName: 'Custom',
        content: 'first <b>post</b> & more',
        postFile: '',
        postMediaFile: '',
        postCreatedAt: dmy(new Date(NOW).toISOString()),
        postUpdatedAt: dmy(new Date(NOW).toISOString()),
        postLinkUrl: '',
        postAuthorName: '',
        postUserPicture: '',
        PostType: 5,
        CTAcolor: null,
        CTAbackground: null,
        CTAStatus: null,
        CTAurl: null,
        CTAtext: null,
        childNode: [],
      });
      expect(p.postId).toMatch(/^[1-9][0-9]*$/);
      // the media kind is text
      expect((await widgetPosts(7012, { include_only_text_posts: 'true' })).map((x) => x.postId)).toEqual([p.postId]);
      expect(await widgetPosts(7012, { include_only_image_posts: 'true' })).toEqual([]);
      expect(await widgetPosts(7012, { include_only_video_posts: 'true' })).toEqual([]);
    });

    it('author, picture and link are carried to postAuthorName, postUserPicture and postLinkUrl', async () => {
      await create('widget', {
        wallId: 7012,
        content: 'with author',
        authorName: 'Ann “Q” <Author>',
        authorPicture: 'https://cdn.example.com/u/ann.png',
        link: 'http://example.com/a?b=c&d=e#f',
      });
      const [p] = await widgetPosts(7012);
      // authorName is plain text (contract §7): `<Author>` is a tag, removed; the text around it is kept
      expect(p).toMatchObject({
        postAuthorName: 'Ann “Q” ',
        postUserPicture: 'https://cdn.example.com/u/ann.png',
        postLinkUrl: 'http://example.com/a?b=c&d=e#f',
      });
      const [c] = await commercePosts(7012);
      expect(c).toMatchObject({
        postAuthorName: 'Ann “Q” ',
        postUserPicture: 'https://cdn.example.com/u/ann.png',
        postLinkUrl: 'http://example.com/a?b=c&d=e#f',
        postContent: 'with author',
      });
    });

    it('C3: the commerce item of a custom post has postType 5, integer postId, CTA defaults "" and 0', async () => {
      expectJsonMessage(
        await create('commerce', { wallId: 7014, content: 'shop post' }, { key: KEYS.com }),
        MSG.created,
      );
      const items = await commercePosts(7014, {}, KEYS.com);
      const p = items.find((x) => x.postContent === 'shop post');
      expect(p).toMatchObject({
        networkName: 'Custom',
        postType: 5,
        postFile: '',
        postScore: null,
        postRating: null,
        CTAcolor: '',
        CTAbackground: '',
        CTAStatus: 0,
        CTAurl: '',
        CTAtext: '',
        postCreatedAt: '15/01/2026',
      });
      expect(Number.isInteger(p?.postId)).toBe(true);
      // and C5 finds it, with no products
      const d = await get(srv.baseUrl, `/api/v2/commerce/getGalleryProductByID/7014/${String(p?.postId)}/`, {
        user_key: KEYS.com,
      });
      expect(d.status).toBe(200);
      expect((d.json() as { responseData: Record<string, unknown> }).responseData).toMatchObject({
        wallId: '7014',
        postId: String(p?.postId),
        postProductIds: '',
        postProducts: [],
      });
    });

    it('content and postFile together: the post keeps both; the kind follows postFile', async () => {
      await create('commerce', { wallId: 7012, content: 'look', postFile: 'https://cdn.example.com/v.mov' });
      const [p] = await widgetPosts(7012, { include_only_video_posts: 'true' });
      expect(p).toMatchObject({ content: 'look', postFile: 'https://cdn.example.com/v.mov' });
    });

    it('the custom feed is made on first use (source Custom, sourceType post) and then reused', async () => {
      const before = await feedsOf(7011);
      expect(before.map((f) => f.feedId)).toEqual([7101, 7102, 7103]);
      await create('widget', { wallId: 7011, content: 'one' });
      const after1 = await feedsOf(7011);
      expect(after1).toHaveLength(4);
      expect(after1.slice(0, 3)).toEqual(before);
      const custom = after1[3] as FeedInfo;
      expect(custom).toMatchObject({
        feedName: 'Custom',
        source: 'Custom',
        sourceType: 'post',
        feedCreatedAt: '15/01/2026',
        feedUpdatedAt: '15/01/2026',
      });

      srv.clock.now = NOW + 3 * 86_400_000;
      await create('commerce', { wallId: 7011, content: 'two' });
      await create('widget', { wallId: '7011', postFile: 'https://cdn.example.com/three.jpg' });
      const after3 = await feedsOf(7011);
      expect(after3).toHaveLength(4);
      expect(after3[3]?.feedId).toBe(custom.feedId);
      const c1 = await get(srv.baseUrl, '/api/v2/commerce/getGalleryInfo/7011', { user_key: KEYS.ent });
      const cfeeds = (c1.json() as { responseData: { feeds: FeedInfo[] }[] }).responseData[0]?.feeds ?? [];
      expect(cfeeds.filter((f) => f.source === 'Custom')).toHaveLength(1);

      const posts = (await widgetPosts(7011)).filter((p) => p.networkName === 'Custom');
      expect(posts.map((p) => p.content)).toEqual(['', 'two', 'one']);
      expect(new Set(posts.map((p) => p.feedId))).toEqual(new Set([custom.feedId]));
      expect(posts.map((p) => p.postCreatedAt)).toEqual(['18/01/2026', '18/01/2026', '15/01/2026']);
    });

    it('a new post is placed by the contract order: after pinned posts, newest first', async () => {
      srv.clock.now = Date.UTC(2030, 0, 1);
      await create('widget', { wallId: 7011, content: 'newest' });
      const posts = await widgetPosts(7011);
      // six pinned posts first, then the new one (newer than every sample post)
      expect(posts.slice(0, 6).every((p) => p.postPin === 1)).toBe(true);
      expect(posts[6]?.content).toBe('newest');
      expect(posts).toHaveLength(58);
    });

    it('two posts at the same instant: the later one (larger id) first', async () => {
      await create('widget', { wallId: 7012, content: 'a' });
      await create('widget', { wallId: 7012, content: 'b' });
      const posts = await widgetPosts(7012);
      expect(posts.map((p) => p.content)).toEqual(['b', 'a']);
      expect(Number(posts[0]?.postId)).toBeGreaterThan(Number(posts[1]?.postId));
    });

    it('the XML form of the success message', async () => {
      const res = await create('widget', { wallId: 7012, content: 'x' }, { format: 'xml' });
      expect(res.status).toBe(200);
      expect(res.xml().tree).toEqual({
        xml: [{ responseCode: '200' }, { responseStatus: 'success' }, { responseMessage: MSG.created }],
      });
    });

    it('W3 with the widget key on its own wall; C3 with the commerce key on its own', async () => {
      expect((await create('widget', { wallId: 7013, content: 'w' }, { key: KEYS.wid })).status).toBe(200);
      expect((await create('commerce', { wallId: 7014, content: 'c' }, { key: KEYS.com })).status).toBe(200);
      expect((await create('widget', { wallId: 7014, content: 'w' }, { key: KEYS.wid })).status).toBe(404);
      expect((await create('commerce', { wallId: 7013, content: 'c' }, { key: KEYS.com })).status).toBe(404);
    });

    it('U+0000 and unpaired surrogates are kept as U+FFFD, the same on every store', async () => {
      expectJsonMessage(
        await create('widget', { wallId: 7012, content: 'a\u0000b \uD800 \uDC00\uD800 🎉', authorName: 'n\u0000' }),
        MSG.created,
      );
      const [p] = await widgetPosts(7012);
      expect(p?.content).toBe('a\uFFFDb \uFFFD \uFFFD\uFFFD 🎉');
      expect(p?.postAuthorName).toBe('n\uFFFD');
    });

    it('a body sent as text/plain is still read as JSON', async () => {
      const res = await call(srv.baseUrl, CREATE.widget, {
        query: { user_key: KEYS.ent },
        body: JSON.stringify({ wallId: 7012, content: 'plain' }),
        headers: { 'content-type': 'text/plain' },
      });
      expectJsonMessage(res, MSG.created);
    });
  });

  describe('create: the media kind of postFile', () => {
    shared();
    const media: [string, 'image' | 'video'][] = [
      ['https://cdn.example.com/x/photo.jpg', 'image'],
      ['https://cdn.example.com/x/photo.PNG', 'image'],
      ['https://cdn.example.com/x/clip.mp4', 'video'],
      ['https://cdn.example.com/x/clip.MOV', 'video'],
      ['https://cdn.example.com/x/clip.webm', 'video'],
      ['https://cdn.example.com/x/clip.m4v', 'video'],
      ['https://cdn.example.com/x/clip.mp4?sig=abc.jpg', 'video'],
      ['https://cdn.example.com/x/clip.mp4#t=10', 'video'],
      ['https://cdn.example.com/x/not-a-clip.mp4.jpg', 'image'],
      ['https://cdn.example.com/x/mp4', 'image'],
      ['https://cdn.example.com/x/photo.jpg?format=.mp4', 'image'],
    ];
    it.each(media)('postFile %s → media kind %s (W2 flags)', async (postFile, kind) => {
      const before = await count7012();
      expectJsonMessage(await create('widget', { wallId: 7012, postFile }), MSG.created);
      expect(await count7012()).toBe(before + 1);
      const p = await newest7012();
      expect(p.postFile).toBe(postFile);
      expect(p.content).toBe('');
      expect(p.PostType).toBe(5);
      const listed = (flag: string) =>
        widgetPosts(7012, { [flag]: 'true' }).then((x) => x.some((y) => y.postId === p.postId));
      expect(await listed('include_only_image_posts')).toBe(kind === 'image');
      expect(await listed('include_only_video_posts')).toBe(kind === 'video');
      expect(await listed('include_only_text_posts')).toBe(false);
      const c = await commercePosts(7012, { [`include_only_${kind}_posts`]: '1' });
      expect(c.some((x) => String(x.postId) === p.postId)).toBe(true);
    });
  });

  describe('create: validation (both families)', () => {
    shared();
    const long = (n: number) => 'x'.repeat(n);
    const url = (n: number) => `https://e.com/${'a'.repeat(n - 'https://e.com/'.length)}`;
    const bad: [string, unknown, RegExp][] = [
      ['missing wallId', { content: 'x' }, /wallId/],
      ['wallId "abc"', { wallId: 'abc', content: 'x' }, /wallId/],
      ['wallId -1', { wallId: -1, content: 'x' }, /wallId/],
      ['wallId 1.5', { wallId: 1.5, content: 'x' }, /wallId/],
      ['wallId "7012 "', { wallId: '7012 ', content: 'x' }, /wallId/],
      ['wallId ""', { wallId: '', content: 'x' }, /wallId/],
      ['wallId true', { wallId: true, content: 'x' }, /wallId/],
      ['wallId null', { wallId: null, content: 'x' }, /wallId/],
      ['wallId [7012]', { wallId: [7012], content: 'x' }, /wallId/],
      ['content and postFile both empty', { wallId: 7012, content: '', postFile: '' }, /content|postFile/],
      ['content and postFile both absent', { wallId: 7012 }, /content|postFile/],
      ['content of 10001 characters', { wallId: 7012, content: long(10001) }, /content/],
      ['content a number', { wallId: 7012, content: 5 }, /content/],
      ['authorName of 201 characters', { wallId: 7012, content: 'x', authorName: long(201) }, /authorName/],
      ['authorName an object', { wallId: 7012, content: 'x', authorName: {} }, /authorName/],
      ['link ftp://x', { wallId: 7012, content: 'x', link: 'ftp://x' }, /link/],
      ['link relative', { wallId: 7012, content: 'x', link: '/a/b' }, /link/],
      ['link http:// without host', { wallId: 7012, content: 'x', link: 'http://' }, /link/],
      ['postFile "not a url"', { wallId: 7012, postFile: 'not a url' }, /postFile/],
      ['postFile javascript:', { wallId: 7012, postFile: 'javascript:alert(1)' }, /postFile/],
      ['postFile of 2049 characters', { wallId: 7012, postFile: url(2049) }, /postFile/],
      ['postFile with a space', { wallId: 7012, postFile: 'https://e.com/a b.jpg' }, /postFile/],
      [
        'authorPicture data:',
        { wallId: 7012, content: 'x', authorPicture: 'data:image/png;base64,AAAA' },
        /authorPicture/,
      ],
      ['authorPicture a number', { wallId: 7012, content: 'x', authorPicture: 7 }, /authorPicture/],
      ['postFile with a NUL', { wallId: 7012, postFile: 'https://e.com/a\u0000.jpg' }, /postFile/],
      ['link with a control character', { wallId: 7012, content: 'x', link: 'https://e.com/\u0001' }, /link/],
      [
        'authorPicture with DEL',
        { wallId: 7012, content: 'x', authorPicture: 'https://e.com/\u007f.png' },
        /authorPicture/,
      ],
    ];
    it.each(FAMILIES.flatMap((f) => bad.map(([name, body, msg]) => [f, name, body, msg] as const)))(
      '%s: %s → 400',
      async (family, _name, body, message) => {
        const before = await count7012();
        expectError(await create(family, body), 'json', 400, message);
        expectError(await create(family, body, { format: 'xml' }), 'xml', 400, message);
        expect(await count7012()).toBe(before);
      },
    );

    const nonObjects = [
      '[]',
      '"text"',
      '42',
      'null',
      'true',
      '',
      '{',
      '{"wallId": 7012, "content": "x",}',
      "{'wallId': 7012}",
    ];
    it.each(FAMILIES.flatMap((f) => nonObjects.map((b) => [f, b] as const)))(
      '%s: body %j → 400',
      async (family, raw) => {
        const before = await count7012();
        const res = await call(srv.baseUrl, CREATE[family], {
          method: 'POST',
          query: { user_key: KEYS.ent },
          body: raw === '' ? undefined : raw,
          headers: { 'content-type': 'application/json' },
        });
        expectError(res, 'json', 400);
        expect(await count7012()).toBe(before);
      },
    );

    it.each(FAMILIES)('%s: no body at all → 400', async (family) => {
      const res = await call(srv.baseUrl, CREATE[family], { method: 'POST', query: { user_key: KEYS.ent } });
      expectError(res, 'json', 400);
    });

    const good: [string, Record<string, unknown>][] = [
      ['wallId as a string of digits', { wallId: '7012', content: 'x' }],
      ['content of exactly 10000 characters', { wallId: 7012, content: long(10000) }],
      ['authorName of exactly 200 characters', { wallId: 7012, content: 'x', authorName: long(200) }],
      ['postFile of exactly 2048 characters', { wallId: 7012, postFile: url(2048) }],
      ['postFile only', { wallId: 7012, postFile: 'https://cdn.example.com/a.jpg' }],
      ['HTTP in upper case', { wallId: 7012, content: 'x', link: 'HTTPS://EXAMPLE.COM/' }],
      [
        'unknown fields are ignored',
        { wallId: 7012, content: 'x', foo: 1, responseCode: 500, postId: 1, hidden: true },
      ],
      ['empty optional URLs', { wallId: 7012, content: 'x', link: '', authorPicture: '' }],
    ];
    it.each(FAMILIES.flatMap((f) => good.map(([name, body]) => [f, name, body] as const)))(
      '%s: %s → 200 and one post',
      async (family, _name, body) => {
        const before = await count7012();
        expectJsonMessage(await create(family, body), MSG.created);
        expect(await count7012()).toBe(before + 1);
        const p = await newest7012();
        expect(p.content).toBe(typeof body.content === 'string' ? body.content : '');
        expect(p.PostType).toBe(5);
        expect(p.postPin).toBe(0);
      },
    );
  });

  describe('Idempotency-Key', () => {
    shared();

    it.each(FAMILIES)('%s: 5 retries with one key → exactly one post, each answered 200', async (family) => {
      const before = await count7012();
      for (let i = 0; i < 5; i++) {
        const res = await create(
          family,
          { wallId: 7012, content: `once ${family}` },
          { headers: { 'Idempotency-Key': `key-A-${family}` } },
        );
        expectJsonMessage(res, MSG.created);
      }
      expect(await count7012()).toBe(before + 1);
      expect((await newest7012()).content).toBe(`once ${family}`);
    });

    it('concurrent retries with one key → exactly one post', async () => {
      const before = await count7012();
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          create('widget', { wallId: 7012, content: 'race' }, { headers: { 'Idempotency-Key': 'key-race' } }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(await count7012()).toBe(before + 1);
      expect((await newest7012()).content).toBe('race');
    });

    it('different keys → different posts; no key → a post per call', async () => {
      const before = await count7012();
      await create('widget', { wallId: 7012, content: 'k' }, { headers: { 'Idempotency-Key': 'key-1' } });
      await create('widget', { wallId: 7012, content: 'k' }, { headers: { 'Idempotency-Key': 'key-2' } });
      await create('commerce', { wallId: 7012, content: 'k' }, { headers: { 'Idempotency-Key': 'key-3' } });
      expect(await count7012()).toBe(before + 3);
      await create('widget', { wallId: 7012, content: 'n' });
      await create('widget', { wallId: 7012, content: 'n' });
      expect(await count7012()).toBe(before + 5);
    });

    it('a retry 23 hours later is still the same post', async () => {
      const before = await count7012();
      await create('widget', { wallId: 7012, content: 'later' }, { headers: { 'Idempotency-Key': 'key-day' } });
      srv.clock.now += 23 * 3_600_000;
      await create('widget', { wallId: 7012, content: 'later' }, { headers: { 'Idempotency-Key': 'key-day' } });
      expect(await count7012()).toBe(before + 1);
    });

    it('one key works across the two families of one account (a retry through the other family)', async () => {
      const before = await count7012();
      await create('widget', { wallId: 7012, content: 'cross' }, { headers: { 'Idempotency-Key': 'key-x' } });
      await create('commerce', { wallId: 7012, content: 'cross' }, { headers: { 'Idempotency-Key': 'key-x' } });
      expect(await count7012()).toBe(before + 1);
    });

    it('the same key used by two accounts gives each its own post', async () => {
      const before = await count7012();
      await create('widget', { wallId: 7012, content: 'ent' }, { headers: { 'Idempotency-Key': 'shared' } });
      await create(
        'widget',
        { wallId: 7013, content: 'wid' },
        { key: KEYS.wid, headers: { 'Idempotency-Key': 'shared' } },
      );
      expect(await count7012()).toBe(before + 1);
      expect((await newest7012()).content).toBe('ent');
      expect((await widgetPosts(7013, {}, KEYS.wid)).map((p) => p.content)).toContain('wid');
    });

    it('an invalid body with a key creates nothing and does not burn the key', async () => {
      const before = await count7012();
      expectError(await create('widget', { wallId: 7012 }, { headers: { 'Idempotency-Key': 'key-b' } }), 'json', 400);
      expectJsonMessage(
        await create('widget', { wallId: 7012, content: 'ok' }, { headers: { 'Idempotency-Key': 'key-b' } }),
        MSG.created,
      );
      expect(await count7012()).toBe(before + 1);
      expect((await newest7012()).content).toBe('ok');
    });
  });

  describe('delete (soft)', () => {
    fresh();
    const statusesOn = async (wallId: number, key: string) => {
      const out: Record<string, number> = {};
      for (const op of OPS) out[op.id] = (await runOp(srv.baseUrl, op, { key, wallId })).status;
      return out;
    };

    it('W4: success message, then 404 Wall not found on every operation, second delete 404', async () => {
      expectJsonMessage(await get(srv.baseUrl, '/api/v2/widget/delete/7011', { user_key: KEYS.ent }), MSG.deletedWall);
      for (const op of OPS) {
        expectError(await runOp(srv.baseUrl, op, { key: KEYS.ent, wallId: 7011 }), 'json', 404, MSG.wallNotFound);
        expectError(
          await runOp(srv.baseUrl, op, { key: KEYS.ent, wallId: 7011, format: 'xml' }),
          'xml',
          404,
          MSG.wallNotFound,
        );
      }
      expectError(
        await get(srv.baseUrl, '/api/v2/widget/delete/7011', { user_key: KEYS.ent }),
        'json',
        404,
        MSG.wallNotFound,
      );
      expectError(
        await get(srv.baseUrl, '/api/v2/commerce/deleteGallery/7011', { user_key: KEYS.ent }),
        'json',
        404,
        MSG.wallNotFound,
      );
    });

    it('C4: success message, then 404 everywhere; the other wall of the account is untouched', async () => {
      expectJsonMessage(
        await get(srv.baseUrl, '/api/v2/commerce/deleteGallery/7014', { user_key: KEYS.com }),
        MSG.deletedGallery,
      );
      const s = await statusesOn(7014, KEYS.com);
      expect(s).toEqual({ W1: 401, W2: 401, W3: 401, W4: 401, C1: 404, C2: 404, C3: 404, C4: 404, C5: 404 });
      expect((await get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: KEYS.ent })).status).toBe(200);
    });

    it('the deleted sample wall 7015 cannot be deleted again; another account’s wall cannot be deleted', async () => {
      expectError(
        await get(srv.baseUrl, '/api/v2/widget/delete/7015', { user_key: KEYS.ent }),
        'json',
        404,
        MSG.wallNotFound,
      );
      expectError(
        await get(srv.baseUrl, '/api/v2/widget/delete/7013', { user_key: KEYS.ent }),
        'json',
        404,
        MSG.wallNotFound,
      );
      expectError(await get(srv.baseUrl, '/api/v2/commerce/deleteGallery/7014', { user_key: KEYS.ent }), 'json', 404);
      expect((await get(srv.baseUrl, '/api/v2/widget/wallInfo/7013', { user_key: KEYS.wid })).status).toBe(200);
      expect((await get(srv.baseUrl, '/api/v2/commerce/getGalleryInfo/7014', { user_key: KEYS.com })).status).toBe(200);
    });

    it('a deleted wall’s posts and feeds stay out of every answer, also after posting was tried', async () => {
      await create('widget', { wallId: 7012, content: 'before delete' });
      expectJsonMessage(await get(srv.baseUrl, '/api/v2/widget/delete/7012', { user_key: KEYS.ent }), MSG.deletedWall);
      expectError(await create('widget', { wallId: 7012, content: 'after delete' }), 'json', 404, MSG.wallNotFound);
      expectError(await create('commerce', { wallId: '7012', content: 'after delete' }), 'json', 404, MSG.wallNotFound);
      const res = await get(srv.baseUrl, '/api/v2/commerce/getGalleryPosts/7012/', { user_key: KEYS.ent });
      expectError(res, 'json', 404, MSG.wallNotFound);
    });

    it('deleting is soft: a restore by the operator brings the wall back with its posts', async () => {
      const before = await get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: KEYS.ent });
      await get(srv.baseUrl, '/api/v2/widget/delete/7011', { user_key: KEYS.ent });
      const { restoreWall } = await import('../../src/manage/walls.js');
      const { CLI_ACTOR } = await import('../../src/manage/op.js');
      expect(await restoreWall({ db: srv.store.db, actor: CLI_ACTOR, now: Date.now() }, 7011)).toMatchObject({
        id: 7011,
        deleted: false,
      });
      const after = await get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: KEYS.ent });
      expect(after.json()).toStrictEqual(before.json());
    });
  });
});
