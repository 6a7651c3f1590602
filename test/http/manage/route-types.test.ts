// The route helper keeps the schemas' types: request.params/query/body and
// the returned data are checked against them at compile time (tsc), and a
// route declared with it registers like a hand-written one.
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { manageResource } from '../../../src/http/manage/resource.js';
import { manageRoute } from '../../../src/http/manage/route.js';

const Params = Type.Object({ wallId: Type.String() });
const Query = Type.Object({ limit: Type.Optional(Type.String()) });
const Body = Type.Object({ name: Type.String() });
const Data = Type.Object({ id: Type.Integer(), name: Type.String() });

describe('manageRoute', () => {
  it('infers request and answer types from the schemas', async () => {
    const app = Fastify();
    const route = manageRoute(app, 'test');
    const spec = { access: ['editor', 'wall'], summary: 's', params: Params, query: Query, body: Body } as const;
    route.post('/w/:wallId', { ...spec, ok: [201, Data, 'made'] }, async (request) => {
      const wallId: string = request.params.wallId;
      const limit: string | undefined = request.query.limit;
      // @ts-expect-error a field the params schema does not have
      void request.params.postId;
      // @ts-expect-error a field the body schema does not have
      void request.body.title;
      return { id: Number(wallId) + (limit ? 1 : 0), name: request.body.name };
    });
    // @ts-expect-error the answer must match the success schema
    route.get('/w', { access: ['viewer', 'filtered'], summary: 's', ok: [200, Data, 'it'] }, async () => ({
      id: 'x',
    }));
    const res = await app.inject({ method: 'POST', url: '/w/7?limit=1', payload: { name: 'n' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ responseCode: 201, responseStatus: 'success', responseData: { id: 8, name: 'n' } });
    await app.close();
  });
});

describe('manageResource', () => {
  const Parent = Type.Object({ wallId: Type.String() });
  const Item = Type.Object({ wallId: Type.String(), itemId: Type.String() });
  const Secret = Type.Object({ id: Type.Integer(), name: Type.String(), secret: Type.String() });

  it('types each route from the resource and declares it by convention', async () => {
    const app = Fastify();
    // PageQuery carries the management API's own keywords; validation is its hook's (validation.ts), off here.
    app.setValidatorCompiler(() => () => true);
    const items = manageResource(app, 'test', {
      record: [Data, 'item'],
      collection: ['/w/:wallId/items', Parent],
      item: ['/w/:wallId/items/:itemId', Item],
    });
    items.list({ access: ['viewer', 'wall'], summary: 'l' }, async (request) => {
      const cursor: string | undefined = request.query.cursor;
      // @ts-expect-error the collection's params have no item id
      void request.params.itemId;
      return { data: [{ id: Number(request.params.wallId), name: cursor ?? '' }], nextCursor: null };
    });
    items.create(
      { access: ['editor', 'wall'], summary: 'c', body: Body, ok: [Secret, 'the new item with its secret'] },
      async (request) => ({ id: 1, name: request.body.name, secret: 's' }),
    );
    // @ts-expect-error the answer of get is the resource's record
    items.get({ access: ['viewer', 'wall'], summary: 'g' }, async () => ({ id: 'x' }));
    items.remove({ access: ['editor', 'wall'], summary: 'r', answer: 'the removed item' }, async (request) => ({
      id: Number(request.params.itemId),
      name: request.params.wallId,
    }));
    items.action('rename', { access: ['editor', 'wall'], summary: 'a', body: Body, answer: 'it' }, async (request) => ({
      id: Number(request.params.itemId),
      name: request.body.name,
    }));
    await app.ready();
    const list = await app.inject({ method: 'GET', url: '/w/3/items?cursor=c' });
    expect(list.json()).toEqual({
      responseCode: 200,
      responseStatus: 'success',
      responseData: { data: [{ id: 3, name: 'c' }], nextCursor: null },
    });
    const made = await app.inject({ method: 'POST', url: '/w/3/items', payload: { name: 'n' } });
    expect(made.statusCode).toBe(201);
    expect(made.json().responseData).toEqual({ id: 1, name: 'n', secret: 's' });
    const renamed = await app.inject({ method: 'POST', url: '/w/3/items/5/rename', payload: { name: 'm' } });
    expect(renamed.json().responseData).toEqual({ id: 5, name: 'm' });
    const removed = await app.inject({ method: 'DELETE', url: '/w/3/items/5' });
    expect(removed.json().responseData).toEqual({ id: 5, name: '3' });
    await app.close();
  });
});
