// One management route in one declaration: who may call it, what it is in the
// OpenAPI document, what it takes and what it answers —
//
//   const route = manageRoute(app, 'manage: walls');
//   route.get('/walls/:wallId', {
//     access: ['viewer', 'wall'], summary: 'Get a wall',
//     params: WallParams, ok: [200, WallRecord, 'the wall'], errors: [404],
//   }, async (request) => getWall(db(request), num(request.params.wallId)));
//
// The handler returns the data; the envelope (and the 201 of a creation) is
// added here. request.params/query/body are typed from their schemas, and the
// returned data from the success schema.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Role } from '../../domain/roles.js';
import { access, type ScopeBy } from './access.js';
import { created, doc, ok } from './common.js';
import { Created, Ok, responses } from './schemas.js';

type In<S> = S extends TSchema ? Static<S> : unknown;

/** Who may call a route: the least role, and how the account it acts on is found (access.ts). */
export type Allowed = readonly [role: Role, scope: ScopeBy];

export interface RouteSpec<P, Q, B, D extends TSchema> {
  access: Allowed;
  summary: string;
  description?: string;
  /** another tag than the module's (a route documented with a neighbour resource) */
  tag?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** the success: its status, the schema of `responseData` and what it is */
  ok: readonly [200 | 201, D, string];
  /** the route's own errors: 404 when it names a record, 409 when it writes, 410 for a pruned cursor */
  errors?: readonly (404 | 409 | 410)[];
}

export type RouteHandler<P, Q, B, D extends TSchema> = (
  request: FastifyRequest<{ Params: In<P>; Querystring: In<Q>; Body: In<B> }>,
  reply: FastifyReply,
) => Promise<Static<D>>;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The declaration helper of a route module whose routes share `tag`. */
export function manageRoute(app: FastifyInstance, tag: string) {
  const declare =
    (method: Method) =>
    <
      D extends TSchema,
      P extends TSchema | undefined = undefined,
      Q extends TSchema | undefined = undefined,
      B extends TSchema | undefined = undefined,
    >(
      url: string,
      spec: RouteSpec<P, Q, B, D>,
      handler: RouteHandler<P, Q, B, D>,
    ) => {
      const [status, data, text] = spec.ok;
      const success: Record<number, TSchema> = status === 201 ? { 201: Created(data, text) } : { 200: Ok(data, text) };
      // Keys in the order the hand-written routes had them: the OpenAPI document stays the same.
      const schema = {
        ...doc(spec.tag ?? tag, spec.summary, spec.description),
        ...(spec.params ? { params: spec.params } : {}),
        ...(spec.query ? { querystring: spec.query } : {}),
        ...(spec.body ? { body: spec.body } : {}),
        response: responses(success, ...(spec.errors ?? [])),
      };
      app.route({
        method,
        url,
        config: access(...spec.access),
        schema,
        handler: async (request, reply) => {
          const result = await handler(request as Parameters<typeof handler>[0], reply);
          if (status === 201) {
            reply.code(201);
            return created(result);
          }
          return ok(result);
        },
      });
    };
  return {
    get: declare('GET'),
    post: declare('POST'),
    put: declare('PUT'),
    patch: declare('PATCH'),
    delete: declare('DELETE'),
  };
}
