// Widget family W1–W4 over real HTTP on the sample data: every field, in
// order, in JSON and in XML (api-v2.md tables, contract §1, §5, §6).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  dataEnvelope,
  findPost,
  messageEnvelope,
  wallOf,
  widgetList,
  widgetPost,
  widgetWallInfo,
  type SampleData,
} from '../helpers/expect.js';
import {
  call,
  expectJsonData,
  expectJsonMessage,
  expectXmlTree,
  get,
  JSON_TYPE,
  KEYS,
  MSG,
  XML_TYPE,
  type Res,
} from '../helpers/http.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { childElements, childText, envelopeToXml, type XEl } from '../helpers/xml.js';

describeSample('widget family W1–W4 on the sample data', () => {
  let srv: TestServer;
  let data: SampleData;
  beforeAll(async () => {
    data = sample();
    srv = await startTestServer({ data, now: NOW });
  });
  afterAll(async () => {
    await srv?.close();
  });

  const w1 = (wallId: number | string, query: Record<string, string> = {}, key: string = KEYS.ent) =>
    get(srv.baseUrl, `/api/v2/widget/wallInfo/${wallId}`, { user_key: key, ...query });
  const w2 = (wallId: number | string, query: Record<string, string> = {}, key: string = KEYS.ent) =>
    get(srv.baseUrl, `/api/v2/widget/posts/${wallId}`, { user_key: key, ...query });

  describe('W1 wallInfo', () => {
    it.each([
      [7011, KEYS.ent],
      [7012, KEYS.ent],
      [7013, KEYS.wid],
    ])('wall %i in JSON: every field in table order, wallCreatedAt ISO with ms', async (wallId, key) => {
      const res = await w1(wallId, {}, key);
      expectJsonData(res, widgetWallInfo(wallOf(data, wallId), 'json'));
    });

    it.each([
      [7011, KEYS.ent],
      [7012, KEYS.ent],
      [7013, KEYS.wid],
    ])('wall %i in XML: the contract rendering, element by element', async (wallId, key) => {
      const res = await w1(wallId, { format: 'xml' }, key);
      expectXmlTree(res, envelopeToXml(dataEnvelope(widgetWallInfo(wallOf(data, wallId), 'xml'))));
    });

    it('literal values: ISO in JSON, long text in XML, null feedCreatedAt', async () => {
      const json = (await w1(7011)).json() as { responseData: Record<string, unknown>[] };
      const info = json.responseData[0] as Record<string, unknown>;
      expect(json.responseData).toHaveLength(1);
      expect(info.wallId).toBe(7011);
      expect(info.wallCreatedAt).toBe('2022-05-17T09:41:00.000Z');
      const feeds = info.feeds as Record<string, unknown>[];
      expect(feeds.map((f) => f.feedId)).toEqual([7101, 7102, 7103]);
      expect(feeds[1]).toEqual({
        feedId: 7102,
        feedName: 'RSS page 1',
        source: 'RSS',
        sourceType: 'page',
        feedCreatedAt: null,
        feedUpdatedAt: '12/02/2024',
      });

      const xml = (await w1(7011, { format: 'xml' })).xml();
      const rd = childElements(xml.children, 'responseData')[0] as XEl[];
      expect(childText(rd, 'wallCreatedAt')).toBe('Tue May 17 2022 09:41:00 GMT+0000 (Coordinated Universal Time)');
      const xmlFeeds = childElements(rd, 'feeds') as XEl[][];
      expect(xmlFeeds).toHaveLength(3);
      expect(childText(xmlFeeds[1] as XEl[], 'feedCreatedAt')).toBe('null');
      expect(childText(xmlFeeds[0] as XEl[], 'feedCreatedAt')).toBe('10/01/2022');
    });

    it('format=XML (upper case) answers XML', async () => {
      const res = await w1(7011, { format: 'XML' });
      expect(res.contentType).toBe(XML_TYPE);
      expect(res.xml().root).toBe('xml');
    });

    it('format=json explicitly and format absent answer the same JSON', async () => {
      const a = await w1(7011, { format: 'json' });
      const b = await w1(7011);
      expect(a.contentType).toBe(JSON_TYPE);
      expect(a.json()).toStrictEqual(b.json());
    });
  });

  describe('W2 posts', () => {
    it.each([
      [7011, KEYS.ent],
      [7013, KEYS.wid],
      [7012, KEYS.ent],
    ])('wall %i in JSON: default list, every post field by field', async (wallId, key) => {
      const res = await w2(wallId, {}, key);
      expectJsonData(res, widgetList(wallOf(data, wallId), 'json'));
    });

    it.each([
      [7011, KEYS.ent],
      [7013, KEYS.wid],
      [7012, KEYS.ent],
    ])('wall %i in XML: default list, element by element', async (wallId, key) => {
      const res = await w2(wallId, { format: 'xml' }, key);
      expectXmlTree(res, envelopeToXml(dataEnvelope(widgetList(wallOf(data, wallId), 'xml'))));
    });

    it('the sample wall 7011 lists 57 visible posts (60 minus 3 hidden) and 7013 lists 25', async () => {
      const a = (await w2(7011)).json() as { responseData: { posts: unknown[] }[] };
      expect(a.responseData[0]?.posts).toHaveLength(57);
      const b = (await w2(7013, {}, KEYS.wid)).json() as { responseData: { posts: unknown[] }[] };
      expect(b.responseData[0]?.posts).toHaveLength(25);
    });

    it('literal values of a text post with no CTA (17001): widget CTA fields null, postId a string', async () => {
      const res = await w2(7011, { limit: '500' });
      const posts =
        (res.json() as { responseData: { posts: Record<string, unknown>[] }[] }).responseData[0]?.posts ?? [];
      const p = posts.find((x) => x.postId === '17001');
      expect(p).toBeDefined();
      expect(p).toMatchObject({
        postId: '17001',
        content: 'emoji 🎉 <b>bold</b> #0',
        postPicture: '',
        postFileOriginal: '',
        rating: null,
        PostType: 1,
        postCreatedAt: '17/07/2024',
        postAuthorName: '<script>alert(1)</script> Author',
        CTAcolor: null,
        CTAbackground: null,
        CTAStatus: null,
        CTAurl: null,
        CTAtext: null,
        childNode: [],
      });
      expect(typeof p?.postId).toBe('string');
    });

    it('XML: null CTA → text null, empty string → empty element, no childNode items → ONE empty childNode', async () => {
      const res = await w2(7011, { format: 'xml', limit: '500' });
      const rd = childElements(res.xml().children, 'responseData')[0] as XEl[];
      const posts = childElements(rd, 'posts') as XEl[][];
      expect(posts).toHaveLength(57);
      const p = posts.find((x) => childText(x, 'postId') === '17001') as XEl[];
      for (const f of ['CTAcolor', 'CTAbackground', 'CTAStatus', 'CTAurl', 'CTAtext', 'rating']) {
        expect(childText(p, f)).toBe('null');
      }
      expect(childText(p, 'postPicture')).toBe('');
      expect(childElements(p, 'childNode')).toEqual(['']);
      expect(res.text).toMatch(/<childNode\s*\/>|<childNode><\/childNode>/);
      expect(childText(p, 'content')).toBe('emoji 🎉 <b>bold</b> #0');
    });

    it('XML: a carousel (17013) has ONE childNode holding image, video × 3 in item order', async () => {
      const res = await w2(7011, { format: 'xml', limit: '500' });
      const rd = childElements(res.xml().children, 'responseData')[0] as XEl[];
      const p = (childElements(rd, 'posts') as XEl[][]).find((x) => childText(x, 'postId') === '17013') as XEl[];
      expect(childElements(p, 'childNode')).toEqual([
        [
          { image: 'https://cdn.example.com/c/17013-1.jpg' },
          { video: '' },
          { image: 'https://cdn.example.com/c/17013-2.jpg' },
          { video: '' },
          { image: 'https://cdn.example.com/c/17013-3.jpg' },
          { video: '' },
        ],
      ]);
      expect(childText(p, 'PostType')).toBe('4');
    });

    it('XML: a video post (17028) carries its video URL inside childNode', async () => {
      const res = await w2(7011, { format: 'xml', limit: '500' });
      const rd = childElements(res.xml().children, 'responseData')[0] as XEl[];
      const p = (childElements(rd, 'posts') as XEl[][]).find((x) => childText(x, 'postId') === '17028') as XEl[];
      const { post } = findPost(data, 17028);
      expect(childElements(p, 'childNode')).toEqual([
        [{ image: post.children[0]?.image }, { video: post.children[0]?.video }],
      ]);
      expect(post.children[0]?.video).not.toBe('');
    });

    it('XML: the list wall object holds wallCreatedAt in the long textual form', async () => {
      const res = await w2(7011, { format: 'xml', limit: '1' });
      const rd = childElements(res.xml().children, 'responseData')[0] as XEl[];
      const wall = childElements(rd, 'wall')[0] as XEl[];
      expect(wall).toEqual([
        { wallName: 'Demo Summer Wall' },
        { wallUrl: 'demo-summer-wall' },
        { wallProfanity: '0' },
        { wallCreatedAt: 'Tue May 17 2022 09:41:00 GMT+0000 (Coordinated Universal Time)' },
      ]);
    });

    it('an empty wall: the wall object and an empty posts array (JSON), no posts element (XML)', async () => {
      const json = (await w2(7012)).json();
      expect(json.responseData).toEqual([
        {
          wall: {
            wallName: 'Demo Empty Wall',
            wallUrl: 'demo-empty-wall',
            wallProfanity: 0,
            wallCreatedAt: '2022-05-17T09:41:00.000Z',
          },
          posts: [],
        },
      ]);
      const xml = (await w2(7012, { format: 'xml' })).xml();
      const rds = childElements(xml.children, 'responseData');
      expect(rds).toHaveLength(1);
      expect((rds[0] as XEl[]).map((c) => Object.keys(c)[0])).toEqual(['wall']);
    });

    it('each post matches its own widget record in JSON (spot check across feeds)', async () => {
      const res = await w2(7011, { limit: '500' });
      const posts =
        (res.json() as { responseData: { posts: Record<string, unknown>[] }[] }).responseData[0]?.posts ?? [];
      for (const id of [17002, 17003, 17056, 17060]) {
        const got = posts.find((p) => p.postId === String(id));
        expect(got).toStrictEqual(widgetPost(findPost(data, id)));
      }
    });
  });
});

describeSample('widget family W3/W4 success in both formats', () => {
  let srv: TestServer;
  beforeEach(async () => {
    srv = await startTestServer({ data: sample(), now: NOW });
  });
  afterEach(async () => {
    await srv?.close();
  });

  const post = (body: unknown, format?: string): Promise<Res> =>
    call(srv.baseUrl, '/api/v2/widget/create-post', { query: { user_key: KEYS.ent, format }, body });

  it('W3 JSON: exact success envelope, no responseData', async () => {
    const res = await post({ wallId: 7012, content: 'hello' });
    expectJsonMessage(res, MSG.created);
  });

  it('W3 XML: exact success envelope', async () => {
    const res = await post({ wallId: 7012, content: 'hello' }, 'xml');
    expectXmlTree(res, envelopeToXml(messageEnvelope(MSG.created)));
  });

  it('W4 JSON: exact success message, then the wall is gone', async () => {
    const res = await get(srv.baseUrl, '/api/v2/widget/delete/7012', { user_key: KEYS.ent });
    expectJsonMessage(res, MSG.deletedWall);
    const after = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7012', { user_key: KEYS.ent });
    expect(after.status).toBe(404);
  });

  it('W4 XML: exact success message', async () => {
    const res = await get(srv.baseUrl, '/api/v2/widget/delete/7013', { user_key: KEYS.wid, format: 'xml' });
    expectXmlTree(res, envelopeToXml(messageEnvelope(MSG.deletedWall)));
    const after = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7013', { user_key: KEYS.wid, format: 'xml' });
    expect(after.status).toBe(404);
  });
});
