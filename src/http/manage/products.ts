// Products of an account.
import type { FastifyInstance } from 'fastify';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../manage/products.js';
import { accountFilterOf } from './access.js';
import { opOf } from './auth.js';
import { manageResource } from './resource.js';
import { db, num } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { ProductParams } from './schemas.js';
import { ProductCreateBody, ProductListQuery, ProductPatchBody, ProductRecord } from '../../schemas/products.js';

export async function productRoutes(app: FastifyInstance) {
  const products = manageResource(app, 'manage: products', {
    record: [ProductRecord, 'product'],
    collection: ['/products'],
    item: ['/products/:productId', ProductParams],
  });

  products.list(
    {
      access: ['viewer', 'filtered'],
      summary: 'List products',
      description: 'Of one account with `accountId`.',
      query: ProductListQuery,
    },
    async (request) => listProducts(db(request), accountFilterOf(request), pageRequest(request.query)),
  );

  products.create(
    {
      access: ['editor', 'body-account'],
      summary: 'Create a product',
      description: 'Every field of api-v2.md’s Product; those left out are empty (0 for discount).',
      body: ProductCreateBody,
    },
    async (request) => createProduct(opOf(request), request.body),
  );

  products.get({ access: ['viewer', 'product'], summary: 'Get a product' }, async (request) =>
    getProduct(db(request), num(request.params.productId)),
  );

  products.update(
    {
      access: ['editor', 'product'],
      summary: 'Change a product',
      description: 'Every post it is tagged on shows the change on the next C5 read.',
      body: ProductPatchBody,
    },
    async (request) => updateProduct(opOf(request), num(request.params.productId), request.body),
  );

  products.remove(
    {
      access: ['editor', 'product'],
      summary: 'Delete a product',
      description: 'Its tags are removed from every post.',
    },
    async (request) => deleteProduct(opOf(request), num(request.params.productId)),
  );
}
