// Products and product tags through the management API, observed through
// C5 (hotspots in tag order).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEYS } from '../../helpers/http.js';
import { describeSample, NOW } from '../../helpers/sample.js';
import { data, failure, fields, startManageServer, type ManageServer } from './helpers.js';

interface Product {
  id: number;
  accountId: number;
  name: string;
  price: number;
  createdAt: string;
  updatedAt: string;
  tagCount: number;
  [field: string]: unknown;
}
interface Tag {
  productId: number;
  productName: string;
  left: number;
  top: number;
  position: number;
}
interface Detail {
  postProductIds: string;
  postProducts: { productId: number; productName: string; productPrice: number; hotspot: string[] }[];
}

const FULL = {
  accountId: 7001,
  name: 'Trail runner 2',
  sku: 'TR-2',
  price: 129.9,
  currencySymbol: '€',
  currency: 'EUR',
  discount: 10,
  discountCurrencySymbol: '€',
  discountCurrency: 'EUR',
  url: 'https://shop.example.com/p/tr-2',
  image: 'https://cdn.example.com/p/tr-2.jpg',
  storeShopName: 'Main shop',
  storeProductId: 'sp-77',
  storeProductType: 'shoes',
};

describeSample('products and product tags', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const detail = async (postId: number) => {
    const res = await m.v2(`/commerce/getGalleryProductByID/7011/${postId}/`);
    expect(res.status).toBe(200);
    return res.json().responseData as Detail;
  };
  const hotspots = (d: Detail) => d.postProducts.map((p) => [p.productId, ...p.hotspot]);

  it('creates a product with every field of api-v2.md, reads, lists, changes and deletes it', async () => {
    const made: Product = data(await m.api('POST', '/products', FULL), 201);
    const at = new Date(NOW).toISOString();
    expect(made).toEqual({ id: made.id, ...FULL, createdAt: at, updatedAt: at, tagCount: 0 });
    expect(data(await m.api('GET', `/products/${made.id}`))).toEqual(made);
    const list = data<{ data: Product[] }>(await m.api('GET', '/products?accountId=7001')).data;
    expect(list.map((p) => p.id)).toEqual([7501, 7502, 7503, 7504, made.id]);
    const minimal: Product = data(await m.api('POST', '/products', { accountId: 7003, name: 'Mug', price: 0 }), 201);
    expect(minimal).toMatchObject({ sku: '', currency: '', discount: 0, url: '', storeProductId: '' });
    m.srv.clock.now = NOW + 1000;
    try {
      const changed: Product = data(await m.api('PATCH', `/products/${made.id}`, { price: 99.5, storeShopName: '' }));
      expect(changed).toEqual({
        ...made,
        price: 99.5,
        storeShopName: '',
        updatedAt: new Date(NOW + 1000).toISOString(),
      });
    } finally {
      m.srv.clock.now = NOW;
    }
    data(await m.api('DELETE', `/products/${minimal.id}`));
    failure(await m.api('GET', `/products/${minimal.id}`), 404, `product ${minimal.id} not found`);
    failure(
      await m.api('POST', '/products', { accountId: 424242, name: 'x', price: 1 }),
      404,
      'account 424242 not found',
    );
  });

  it('tags products on a post: C5 lists them with hotspots in tag order', async () => {
    const changes = await m.changesDuring(async () => {
      const tags: Tag[] = data(
        await m.api('PUT', '/walls/7011/posts/17007/products', {
          tags: [
            { productId: 7503, left: 12.5, top: 80 },
            { productId: 7501, left: 0, top: 100 },
          ],
        }),
      );
      expect(tags).toEqual([
        { productId: 7503, productName: expect.any(String), left: 12.5, top: 80, position: 0 },
        { productId: 7501, productName: 'naïve product 1', left: 0, top: 100, position: 1 },
      ]);
    });
    expect(changes).toEqual([{ kind: 'wall', wallId: 7011 }]);
    let d = await detail(17007);
    expect(d.postProductIds).toBe('7503,7501');
    expect(hotspots(d)).toEqual([
      [7503, 'left:12.5%', 'top:80%'],
      [7501, 'left:0%', 'top:100%'],
    ]);

    // add one in front, move one, change a hotspot, remove one
    data(await m.api('POST', '/walls/7011/posts/17007/products', { productId: 7502, left: 50, top: 50, position: 0 }));
    expect((await detail(17007)).postProductIds).toBe('7502,7503,7501');
    data(await m.api('PATCH', '/walls/7011/posts/17007/products/7501', { position: 0, left: 33.3 }));
    d = await detail(17007);
    expect(d.postProductIds).toBe('7501,7502,7503');
    expect(d.postProducts[0]!.hotspot).toEqual(['left:33.3%', 'top:100%']);
    const left: Tag[] = data(await m.api('DELETE', '/walls/7011/posts/17007/products/7502'));
    expect(left.map((t) => [t.productId, t.position])).toEqual([
      [7501, 0],
      [7503, 1],
    ]);
    expect((await detail(17007)).postProductIds).toBe('7501,7503');
    expect(data(await m.api('GET', '/walls/7011/posts/17007/products'))).toEqual(left);
    // XML carries the same order
    const xml = await m.v2('/commerce/getGalleryProductByID/7011/17007/', { format: 'xml' });
    expect(xml.text).toContain('<postProductIds>7501,7503</postProductIds>');
    // clearing
    expect(data(await m.api('PUT', '/walls/7011/posts/17007/products', { tags: [] }))).toEqual([]);
    expect((await detail(17007)).postProducts).toEqual([]);
  });

  it('refuses products of another account, duplicates and unknown tags', async () => {
    const errors = failure(
      await m.api('PUT', '/walls/7011/posts/17007/products', {
        tags: [
          { productId: 7505, left: 1, top: 1 },
          { productId: 7501, left: 1, top: 1 },
          { productId: 7501, left: 2, top: 2 },
          { productId: 999999, left: 1, top: 1 },
        ],
      }),
      400,
    );
    expect(errors).toEqual([
      { field: 'tags[0].productId', message: 'product 7505 is not a product of account 7001' },
      { field: 'tags[2].productId', message: 'product 7501 is tagged twice' },
      { field: 'tags[3].productId', message: 'product 999999 is not a product of account 7001' },
    ]);
    expect(
      fields(
        failure(await m.api('POST', '/walls/7011/posts/17007/products', { productId: 7505, left: 1, top: 1 }), 400),
      ),
    ).toEqual(['productId']);
    data(await m.api('POST', '/walls/7011/posts/17007/products', { productId: 7501, left: 1, top: 1 }));
    failure(
      await m.api('POST', '/walls/7011/posts/17007/products', { productId: 7501, left: 5, top: 5 }),
      409,
      /already tagged/,
    );
    expect(
      fields(
        failure(
          await m.api('POST', '/walls/7011/posts/17007/products', { productId: 7502, left: 1, top: 1, position: 3 }),
          400,
        ),
      ),
    ).toEqual(['position']);
    failure(await m.api('PATCH', '/walls/7011/posts/17007/products/7504', { left: 3 }), 404, /tag of product 7504/);
    failure(await m.api('DELETE', '/walls/7011/posts/17007/products/7504'), 404);
    failure(await m.api('GET', '/walls/7011/posts/17086/products'), 404);
    expect((await detail(17007)).postProductIds).toBe('7501');
  });

  it('a product change shows on every post it is tagged on; a deleted product leaves them', async () => {
    const changes = await m.changesDuring(async () => {
      data(await m.api('PATCH', '/products/7502', { name: 'Renamed product', price: 1.5 }));
    });
    expect(changes).toEqual([{ kind: 'account', accountId: 7001 }]);
    for (const postId of [17010, 17026]) {
      const p = (await detail(postId)).postProducts.find((x) => x.productId === 7502)!;
      expect([p.productName, p.productPrice]).toEqual(['Renamed product', 1.5]);
    }
    expect(data<Product>(await m.api('GET', '/products/7502')).tagCount).toBe(3);
    const deleting = await m.changesDuring(async () => {
      data(await m.api('DELETE', '/products/7502'));
    });
    expect(deleting).toContainEqual({ kind: 'account', accountId: 7001 });
    expect(deleting).toContainEqual({ kind: 'wall', wallId: 7011 });
    expect((await detail(17010)).postProductIds).toBe('7503');
    expect((await detail(17026)).postProductIds).toBe('');
  });

  it('the account of a product is the wall’s: commerce account 7003 tags its own on its wall', async () => {
    data(await m.api('PUT', '/walls/7014/posts/17088/products', { tags: [{ productId: 7506, left: 10, top: 90 }] }));
    const res = await m.v2('/commerce/getGalleryProductByID/7014/17088/', {}, KEYS.com);
    expect((res.json().responseData as Detail).postProductIds).toBe('7506');
  });
});
