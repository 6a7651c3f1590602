// Products of an account.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../manage/products.js';
import { access, scopeOf } from './access.js';
import { opOf } from './auth.js';
import { created, db, doc, num, ok, optNum } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { Created, Ok, PageOf, ProductParams, responses } from './schemas.js';
import { ProductCreateBody, ProductListQuery, ProductPatchBody, ProductRecord } from '../../schemas/products.js';

export async function productRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: products';

  app.get(
    '/products',
    {
      config: access('viewer', 'filtered'),
      schema: {
        ...doc(tag, 'List products', 'Of one account with `accountId`.'),
        querystring: ProductListQuery,
        response: responses({ 200: Ok(PageOf(ProductRecord), 'a page of products') }),
      },
    },
    async (request) =>
      ok(
        await listProducts(
          db(request),
          { accountId: optNum(request.query.accountId), scope: scopeOf(request) },
          pageRequest(request.query),
        ),
      ),
  );

  app.post(
    '/products',
    {
      config: access('editor', 'body-account'),
      schema: {
        ...doc(
          tag,
          'Create a product',
          'Every field of api-v2.md’s Product; those left out are empty (0 for discount).',
        ),
        body: ProductCreateBody,
        response: responses({ 201: Created(ProductRecord, 'the new product') }, 404, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createProduct(opOf(request), request.body));
    },
  );

  app.get(
    '/products/:productId',
    {
      config: access('viewer', 'product'),
      schema: {
        ...doc(tag, 'Get a product'),
        params: ProductParams,
        response: responses({ 200: Ok(ProductRecord, 'the product') }, 404),
      },
    },
    async (request) => ok(await getProduct(db(request), num(request.params.productId))),
  );

  app.patch(
    '/products/:productId',
    {
      config: access('editor', 'product'),
      schema: {
        ...doc(tag, 'Change a product', 'Every post it is tagged on shows the change on the next C5 read.'),
        params: ProductParams,
        body: ProductPatchBody,
        response: responses({ 200: Ok(ProductRecord, 'the product after the change') }, 404, 409),
      },
    },
    async (request) => ok(await updateProduct(opOf(request), num(request.params.productId), request.body)),
  );

  app.delete(
    '/products/:productId',
    {
      config: access('editor', 'product'),
      schema: {
        ...doc(tag, 'Delete a product', 'Its tags are removed from every post.'),
        params: ProductParams,
        response: responses({ 200: Ok(ProductRecord, 'the product as it was') }, 404, 409),
      },
    },
    async (request) => ok(await deleteProduct(opOf(request), num(request.params.productId))),
  );
}
