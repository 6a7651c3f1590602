// The route helper keeps the schemas' types: request.params/query/body and
// the returned data are checked against them at compile time (tsc), and a
// route declared with it registers like a hand-written one.
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
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
