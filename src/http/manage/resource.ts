// The routes of one resource, declared by convention: a collection and its
// items, each route stating only who may call it, its texts and what it
// does differently —
//
//   const feeds = manageResource(app, 'manage: feeds', {
//     record: [FeedRecord, 'feed'],
//     collection: ['/walls/:wallId/feeds', WallParams],
//     item: ['/walls/:wallId/feeds/:feedId', FeedParams],
//   });
//   feeds.get({ access: ['viewer', 'wall'], summary: 'Get a feed' }, async (request) => …);
//
// The conventions (what each route answers, in the words of the OpenAPI document):
// - list: GET collection → "a page of <nouns>", PageQuery unless the route has
//   its own query; 404 when the collection is a record's (it has params);
// - create: POST collection → 201 "the new <noun>"; 404 and 409;
// - get: GET item → "the <noun>"; 404;
// - update: PATCH item → "the <noun> after the change"; 404 and 409;
// - remove: DELETE item → "the <noun> as it was"; 404 and 409;
// - action: POST item/<name> → its `answer` (a record) or its `ok`; 404 and 409;
// - collectionAction: POST collection/<name> → its `ok`; 404 and 409.
// `route` declares the resource's other routes, with its tag (manageRoute).
// A route's `ok` replaces the conventional answer (a record with its secret),
// `answer` the words of a record answered (a revoked key), `errors` the
// conventional errors.
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { PageQuery } from '../../schemas/fields.js';
import { manageRoute, type Allowed, type RouteHandler } from './route.js';
import { PageOf } from './schemas.js';

type Status = 404 | 409 | 410;

export interface ResourceSpec<CP, IP, R extends TSchema> {
  /** the record's schema, and its name in the answers' descriptions: 'feed' → "a page of feeds", "the feed", … */
  record: readonly [schema: R, noun: string];
  /** the collection's path, and its params when it is a record's (a wall's feeds) */
  collection: readonly [path: string, params?: CP];
  item: readonly [path: string, params: IP];
}

/** What a route of a resource states itself. */
interface Own {
  access: Allowed;
  summary: string;
  description?: string;
  errors?: readonly Status[];
}

/** What an action answers: a record of the resource (`answer` says which), or another schema (`ok`). */
type Answer<D> = { answer: string; ok?: never } | { ok: readonly [D, string]; answer?: never };

type Page<R extends TSchema> = ReturnType<typeof PageOf<R>>;

/** The declaration helper of one resource's routes (see above). */
export function manageResource<R extends TSchema, IP extends TSchema, CP extends TSchema | undefined = undefined>(
  app: FastifyInstance,
  tag: string,
  resource: ResourceSpec<CP, IP, R>,
) {
  const route = manageRoute(app, tag);
  const [record, noun] = resource.record;
  const [collection, collectionParams] = resource.collection;
  const [item, itemParams] = resource.item;
  const own = ({ access, summary, description }: Own) => ({ access, summary, description });
  /** An action (of an item or of the collection): a POST that answers 200, 404 and 409. */
  const act = <P extends TSchema | undefined, D extends TSchema, B extends TSchema | undefined>(
    url: string,
    params: P,
    spec: Own & { body?: B },
    ok: readonly [D, string],
    handler: RouteHandler<P, undefined, B, D>,
  ) =>
    route.post(
      url,
      { ...own(spec), params, body: spec.body, ok: [200, ...ok], errors: spec.errors ?? [404, 409] },
      handler,
    );

  return {
    route,

    list: <Q extends TSchema = typeof PageQuery>(
      spec: Own & { query?: Q },
      handler: RouteHandler<CP, Q, undefined, Page<R>>,
    ) =>
      route.get(
        collection,
        {
          ...own(spec),
          params: collectionParams,
          query: spec.query ?? (PageQuery as TSchema as Q),
          ok: [200, PageOf(record), `a page of ${noun}s`],
          errors: spec.errors ?? (collectionParams ? [404] : []),
        },
        handler,
      ),

    create: <B extends TSchema | undefined = undefined, D extends TSchema = R>(
      spec: Own & { body?: B; ok?: readonly [D, string] },
      handler: RouteHandler<CP, undefined, B, D>,
    ) =>
      route.post(
        collection,
        {
          ...own(spec),
          params: collectionParams,
          body: spec.body,
          ok: [201, spec.ok?.[0] ?? (record as TSchema as D), spec.ok?.[1] ?? `the new ${noun}`],
          errors: spec.errors ?? [404, 409],
        },
        handler,
      ),

    get: (spec: Own, handler: RouteHandler<IP, undefined, undefined, R>) =>
      route.get(
        item,
        { ...own(spec), params: itemParams, ok: [200, record, `the ${noun}`], errors: spec.errors ?? [404] },
        handler,
      ),

    update: <B extends TSchema>(spec: Own & { body: B }, handler: RouteHandler<IP, undefined, B, R>) =>
      route.patch(
        item,
        {
          ...own(spec),
          params: itemParams,
          body: spec.body,
          ok: [200, record, `the ${noun} after the change`],
          errors: spec.errors ?? [404, 409],
        },
        handler,
      ),

    remove: (spec: Own & { answer?: string }, handler: RouteHandler<IP, undefined, undefined, R>) =>
      route.delete(
        item,
        {
          ...own(spec),
          params: itemParams,
          ok: [200, record, spec.answer ?? `the ${noun} as it was`],
          errors: spec.errors ?? [404, 409],
        },
        handler,
      ),

    action: <D extends TSchema = R, B extends TSchema | undefined = undefined>(
      name: string,
      spec: Own & { body?: B } & Answer<D>,
      handler: RouteHandler<IP, undefined, B, D>,
    ) => act(`${item}/${name}`, itemParams, spec, spec.ok ?? [record as TSchema as D, spec.answer], handler),

    collectionAction: <D extends TSchema, B extends TSchema | undefined = undefined>(
      name: string,
      spec: Own & { body?: B; ok: readonly [D, string] },
      handler: RouteHandler<CP, undefined, B, D>,
    ) => act(`${collection}/${name}`, collectionParams, spec, spec.ok, handler),
  };
}
