// Commerce family C1–C5 over real HTTP on the sample data: every field, in
// order, in JSON and in XML (api-v2.md tables, contract §1, §5, §6).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  commerceList,
  commercePost,
  commerceWallInfo,
  dataEnvelope,
  findPost,
  messageEnvelope,
  postDetail,
  wallOf,
  type SampleData,
} from '../helpers/expect.js';
import {
  call,
  expectError,
  expectJsonData,
  expectJsonMessage,
  expectXmlTree,
  get,
  KEYS,
  MSG,
} from '../helpers/http.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { childElements, childText, envelopeToXml, type XEl } from '../helpers/xml.js';

describeSample('commerce family C1, C2, C5 on the sample data', () => {
  let srv: TestServer;
  let data: SampleData;
  beforeAll(async () => {
    data = sample();
    srv = await startTestServer({ data, now: NOW });
  });
  afterAll(async () => {
    await srv?.close();
  });

  const c1 = (wallId: number | string, query: Record<string, string> = {}, key: string = KEYS.ent) =>
    get(srv.baseUrl, `/api/v2/commerce/getGalleryInfo/${wallId}`, { user_key: key, ...query });
  const c2 = (wallId: number | string, query: Record<string, string> = {}, key: string = KEYS.ent) =>
    get(srv.baseUrl, `/api/v2/commerce/getGalleryPosts/${wallId}/`, { user_key: key, ...query });
  const c5 = (
    wallId: number | string,
    postId: number | string,
    query: Record<string, string> = {},
    key: string = KEYS.ent,
  ) => get(srv.baseUrl, `/api/v2/commerce/getGalleryProductByID/${wallId}/${postId}/`, { user_key: key, ...query });

  describe('C1 getGalleryInfo', () => {
    it.each([
      [7011, KEYS.ent],
      [7012, KEYS.ent],
      [7014, KEYS.com],
    ])('gallery %i in JSON: every field in order, wallCreatedAt DD/MM/YYYY', async (wallId, key) => {
      expectJsonData(await c1(wallId, {}, key), commerceWallInfo(wallOf(data, wallId)));
    });

    it.each([
      [7011, KEYS.ent],
      [7012, KEYS.ent],
      [7014, KEYS.com],
    ])('gallery %i in XML: element by element', async (wallId, key) => {
      const res = await c1(wallId, { format: 'xml' }, key);
      expectXmlTree(res, envelopeToXml(dataEnvelope(commerceWallInfo(wallOf(data, wallId)))));
    });

    it('literal: commerce wallCreatedAt is DD/MM/YYYY in both formats', async () => {
      const json = (await c1(7014, {}, KEYS.com)).json() as { responseData: Record<string, unknown>[] };
      expect(json.responseData[0]?.wallCreatedAt).toBe('17/05/2022');
      const rd = childElements(
        (await c1(7014, { format: 'xml' }, KEYS.com)).xml().children,
        'responseData',
      )[0] as XEl[];
      expect(childText(rd, 'wallCreatedAt')).toBe('17/05/2022');
      expect(childText(rd, 'wallId')).toBe('7014');
    });
  });

  describe('C2 getGalleryPosts', () => {
    it.each([
      [7011, KEYS.ent],
      [7014, KEYS.com],
      [7012, KEYS.ent],
    ])('gallery %i in JSON: default list, every post field by field', async (wallId, key) => {
      expectJsonData(await c2(wallId, {}, key), commerceList(wallOf(data, wallId)));
    });

    it.each([
      [7011, KEYS.ent],
      [7014, KEYS.com],
      [7012, KEYS.ent],
    ])('gallery %i in XML: element by element', async (wallId, key) => {
      const res = await c2(wallId, { format: 'xml' }, key);
      expectXmlTree(res, envelopeToXml(dataEnvelope(commerceList(wallOf(data, wallId)))));
    });

    it('the trailing slash of the path shape is optional', async () => {
      const a = await get(srv.baseUrl, '/api/v2/commerce/getGalleryPosts/7014', { user_key: KEYS.com });
      expectJsonData(a, commerceList(wallOf(data, 7014)));
    });

    it('literal: commerce postId is an integer and a post with no CTA has "" and 0 (17001)', async () => {
      const res = await c2(7011, { limit: '500' });
      const items =
        (res.json() as { responseData: { feeds: Record<string, unknown>[] }[] }).responseData[0]?.feeds ?? [];
      const p = items.find((x) => x.postId === 17001);
      expect(p).toMatchObject({
        postId: 17001,
        postContent: 'emoji 🎉 <b>bold</b> #0',
        postType: 1,
        postScore: null,
        postRating: null,
        postCreatedAt: '17/07/2024',
        CTAcolor: '',
        CTAbackground: '',
        CTAStatus: 0,
        CTAurl: '',
        CTAtext: '',
      });
      const withCta = items.find((x) => x.postId === 17010);
      expect(withCta).toMatchObject({
        CTAcolor: '#ffffff',
        CTAbackground: '#0a7cff',
        CTAStatus: 1,
        CTAurl: 'https://shop.example.com/cta/17010',
        CTAtext: 'Shop now',
      });
    });

    it('XML: commerce CTA defaults are an empty element and 0, not null', async () => {
      const res = await c2(7011, { format: 'xml', limit: '500' });
      const rd = childElements(res.xml().children, 'responseData')[0] as XEl[];
      const p = (childElements(rd, 'feeds') as XEl[][]).find((x) => childText(x, 'postId') === '17001') as XEl[];
      expect(childText(p, 'CTAcolor')).toBe('');
      expect(childText(p, 'CTAStatus')).toBe('0');
      expect(childText(p, 'postScore')).toBe('null');
      expect(childText(p, 'postContent')).toBe('emoji 🎉 <b>bold</b> #0');
    });

    it('the commerce item set matches the widget item set for the same wall (same ids, same order)', async () => {
      const c = (await c2(7011, { limit: '500' })).json() as { responseData: { feeds: { postId: number }[] }[] };
      const w = (await get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: KEYS.ent, limit: '500' })).json() as {
        responseData: { posts: { postId: string }[] }[];
      };
      expect(c.responseData[0]?.feeds.map((p) => String(p.postId))).toEqual(
        w.responseData[0]?.posts.map((p) => p.postId),
      );
    });
  });

  describe('C5 getGalleryProductByID', () => {
    // 17010: two products; 17013: one product; 17028: a video with two products;
    // 17001: none; 17097 on the commerce account's gallery
    const cases: [number, number, string][] = [
      [7011, 17010, KEYS.ent],
      [7011, 17013, KEYS.ent],
      [7011, 17028, KEYS.ent],
      [7011, 17001, KEYS.ent],
      [7014, 17097, KEYS.com],
      [7014, 17096, KEYS.com],
    ];

    it.each(cases)('gallery %i post %i in JSON: the detail object, products ISO-dated', async (wallId, postId, key) => {
      expectJsonData(await c5(wallId, postId, {}, key), postDetail(data, findPost(data, postId), 'json'));
    });

    it.each(cases)(
      'gallery %i post %i in XML: element by element, long dates, hotspot twice',
      async (wallId, postId, key) => {
        const res = await c5(wallId, postId, { format: 'xml' }, key);
        expectXmlTree(res, envelopeToXml(dataEnvelope(postDetail(data, findPost(data, postId), 'xml'))));
      },
    );

    it('literal JSON of 17010: ids as strings, ids in tagging order, hotspot strings, ISO product dates', async () => {
      const body = (await c5(7011, 17010)).json() as { responseData: Record<string, unknown> };
      const d = body.responseData;
      expect(Array.isArray(d)).toBe(false);
      expect(d.wallId).toBe('7011');
      expect(d.postId).toBe('17010');
      expect(d.postProductIds).toBe('7502,7503');
      const products = d.postProducts as Record<string, unknown>[];
      expect(products.map((p) => p.productId)).toEqual([7502, 7503]);
      expect(products[0]?.hotspot).toEqual(['left:94.5%', 'top:14%']);
      expect(products[1]?.hotspot).toEqual(['left:12.5%', 'top:80%']);
      expect(products[0]?.createdAt).toBe('2023-03-05T08:15:00.000Z');
      expect(products[0]?.storeShopName).toBe('0');
      expect(products[1]?.storeProductId).toBe('0');
      expect(products[0]?.productPrice).toBe(185.4);
      const detail = d.postDetail as Record<string, unknown>[];
      expect(detail).toHaveLength(1);
      expect(detail[0]?.Postcontent).toBe('summer a & b #9');
      expect(detail[0]?.postScore).toBe(44);
    });

    it('literal XML of 17010: two hotspot elements, long product dates', async () => {
      const doc = (await c5(7011, 17010, { format: 'xml' })).xml();
      const rd = childElements(doc.children, 'responseData')[0] as XEl[];
      expect(childText(rd, 'postProductIds')).toBe('7502,7503');
      const products = childElements(rd, 'postProducts') as XEl[][];
      expect(products).toHaveLength(2);
      expect(childElements(products[0] as XEl[], 'hotspot')).toEqual(['left:94.5%', 'top:14%']);
      expect(childText(products[0] as XEl[], 'createdAt')).toBe(
        'Sun Mar 05 2023 08:15:00 GMT+0000 (Coordinated Universal Time)',
      );
      expect(childText(products[0] as XEl[], 'productName')).toBe('"quoted" product 2');
      expect(childText(products[0] as XEl[], 'storeProductType')).toBe('');
    });

    it('a post with no products: empty postProductIds, empty postProducts (JSON) / no element (XML)', async () => {
      const body = (await c5(7011, 17001)).json() as { responseData: Record<string, unknown> };
      expect(body.responseData.postProductIds).toBe('');
      expect(body.responseData.postProducts).toEqual([]);
      const rd = childElements((await c5(7011, 17001, { format: 'xml' })).xml().children, 'responseData')[0] as XEl[];
      expect(rd.map((c) => Object.keys(c)[0])).toEqual(['wallId', 'postId', 'postProductIds', 'postDetail']);
      expect(childText(rd, 'postProductIds')).toBe('');
    });

    it.each(['json', 'xml'] as const)('hidden post (17016) → 404 Post not found (%s)', async (format) => {
      expectError(await c5(7011, 17016, { format }), format, 404, MSG.postNotFound);
    });

    it.each(['json', 'xml'] as const)(
      'post of another wall of the same account → 404 Post not found (%s)',
      async (format) => {
        // 17001 lives on gallery 7011; asked through the account's other gallery 7012
        expectError(await c5(7012, 17001, { format }), format, 404, MSG.postNotFound);
      },
    );

    it('unknown post → 404 Post not found; unknown gallery → 404 Wall not found', async () => {
      expectError(await c5(7011, 99999), 'json', 404, MSG.postNotFound);
      expectError(await c5(7011, 17061), 'json', 404, MSG.postNotFound);
      expectError(await c5(7099, 17001), 'json', 404, MSG.wallNotFound);
      expectError(await c5(7015, 17106), 'json', 404, MSG.wallNotFound);
      expectError(await c5(7013, 17061), 'json', 404, MSG.wallNotFound);
    });

    it('each C2 item agrees with its C5 detail on shared fields', async () => {
      const items = (await c2(7014, { limit: '500' }, KEYS.com)).json() as {
        responseData: { feeds: Record<string, unknown>[] }[];
      };
      for (const item of items.responseData[0]?.feeds ?? []) {
        expect(item).toStrictEqual(commercePost(findPost(data, item.postId as number)));
        const d = (await c5(7014, item.postId as number, {}, KEYS.com)).json() as {
          responseData: { postDetail: Record<string, unknown>[] };
        };
        const detail = d.responseData.postDetail[0];
        expect(detail?.Postcontent).toBe(item.postContent);
        expect(detail?.feedId).toBe(item.feedId);
        expect(detail?.postCreatedAt).toBe(item.postCreatedAt);
      }
    });
  });
});

describeSample('commerce family C3/C4 success in both formats', () => {
  let srv: TestServer;
  beforeEach(async () => {
    srv = await startTestServer({ data: sample(), now: NOW });
  });
  afterEach(async () => {
    await srv?.close();
  });

  it('C3 JSON: exact success envelope, no responseData', async () => {
    const res = await call(srv.baseUrl, '/api/v2/commerce/createGalleryPost', {
      query: { user_key: KEYS.com },
      body: { wallId: 7014, content: 'hello' },
    });
    expectJsonMessage(res, MSG.created);
  });

  it('C3 XML: exact success envelope', async () => {
    const res = await call(srv.baseUrl, '/api/v2/commerce/createGalleryPost', {
      query: { user_key: KEYS.com, format: 'xml' },
      body: { wallId: 7014, content: 'hello' },
    });
    expectXmlTree(res, envelopeToXml(messageEnvelope(MSG.created)));
  });

  it('C4 JSON: exact success message, then the gallery is gone', async () => {
    expectJsonMessage(
      await get(srv.baseUrl, '/api/v2/commerce/deleteGallery/7014', { user_key: KEYS.com }),
      MSG.deletedGallery,
    );
    const after = await get(srv.baseUrl, '/api/v2/commerce/getGalleryInfo/7014', { user_key: KEYS.com });
    expectError(after, 'json', 404, MSG.wallNotFound);
  });

  it('C4 XML: exact success message', async () => {
    const res = await get(srv.baseUrl, '/api/v2/commerce/deleteGallery/7012', { user_key: KEYS.ent, format: 'xml' });
    expectXmlTree(res, envelopeToXml(messageEnvelope(MSG.deletedGallery)));
  });
});
