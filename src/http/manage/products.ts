// Products of an account.
import type { FastifyInstance } from 'fastify';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../manage/products.js';
import { scopeOf } from './access.js';
import { opOf } from './auth.js';
import { manageRoute } from './route.js';
import { db, num, optNum } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { PageOf, ProductParams } from './schemas.js';
import { ProductCreateBody, ProductListQuery, ProductPatchBody, ProductRecord } from '../../schemas/products.js';

export async function productRoutes(app: FastifyInstance) {
  const tag = 'manage: products';
  const route = manageRoute(app, tag);

  route.get(
    '/products',
    {
      role: 'viewer',
      scope: 'filtered',
      summary: 'List products',
      description: 'Of one account with `accountId`.',
      query: ProductListQuery,
      ok: [200, PageOf(ProductRecord), 'a page of products'],
    },
    async (request) =>
      await listProducts(
        db(request),
        { accountId: optNum(request.query.accountId), scope: scopeOf(request) },
        pageRequest(request.query),
      ),
  );

  route.post(
    '/products',
    {
      role: 'editor',
      scope: 'body-account',
      summary: 'Create a product',
      description: 'Every field of api-v2.md’s Product; those left out are empty (0 for discount).',
      body: ProductCreateBody,
      ok: [201, ProductRecord, 'the new product'],
      errors: [404, 409],
    },
    async (request) => {
      return createProduct(opOf(request), request.body);
    },
  );

  route.get(
    '/products/:productId',
    {
      role: 'viewer',
      scope: 'product',
      summary: 'Get a product',
      params: ProductParams,
      ok: [200, ProductRecord, 'the product'],
      errors: [404],
    },
    async (request) => getProduct(db(request), num(request.params.productId)),
  );

  route.patch(
    '/products/:productId',
    {
      role: 'editor',
      scope: 'product',
      summary: 'Change a product',
      description: 'Every post it is tagged on shows the change on the next C5 read.',
      params: ProductParams,
      body: ProductPatchBody,
      ok: [200, ProductRecord, 'the product after the change'],
      errors: [404, 409],
    },
    async (request) => updateProduct(opOf(request), num(request.params.productId), request.body),
  );

  route.delete(
    '/products/:productId',
    {
      role: 'editor',
      scope: 'product',
      summary: 'Delete a product',
      description: 'Its tags are removed from every post.',
      params: ProductParams,
      ok: [200, ProductRecord, 'the product as it was'],
      errors: [404, 409],
    },
    async (request) => deleteProduct(opOf(request), num(request.params.productId)),
  );
}
