// TypeBox schemas of the embed API (the embed wire contract): they validate
// the query, serialize nothing by hand, and are the OpenAPI document's
// source — every status each route answers, with its headers.
import { Type, type TSchema } from 'typebox';
import { EmbedPostSchema, EmbedWallSchema } from '../../schemas/embed.js';
import { EmbedPolledScreenSchema } from '../../schemas/screen.js';
import { EVENTS_MAX, EVENT_TYPES } from '../../domain/analytics.js';

export const EMBED_PREFIX = '/api/embed/v1';
export const EMBED_LIMIT_DEFAULT = 20;
export const EMBED_LIMIT_MAX = 100;

export const EMBED_MESSAGES = {
  key: 'a publishable key is required: key=pk_… (make one with `wallery walls keys create WALL`; user keys are not accepted)',
  otherWall: 'this publishable key belongs to another wall',
  origin: 'this page’s origin may not use this publishable key',
  limit: `limit must be an integer from 1 to ${EMBED_LIMIT_MAX}`,
  cursor: 'cursor is not one this API returned',
  wallId: 'wall id must be a positive integer',
  rateLimited: 'Too many requests: slow down (see Retry-After)',
  streamsFull: 'too many open streams on this server: poll the posts URL instead',
  clientStreams: 'too many open streams from this address: poll the posts URL instead',
  events: `events must be a list of 1 to ${EVENTS_MAX} events, each {"type": ${EVENT_TYPES.join('|')}, "postId"?: "<post id>", "productId"?: <product id>}`,
  view: 'view must be 8 to 64 characters: letters, digits, _ or -',
} as const;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const strict = { additionalProperties: false } as const;

export const EmbedWallParams = Type.Object({
  wallId: Type.String({ pattern: '^0*[1-9][0-9]{0,14}$', 'x-error': EMBED_MESSAGES.wallId }),
});

const KeyQuery = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'a publishable key of the wall (`pk_…`)',
  'x-error': EMBED_MESSAGES.key,
});

export const EmbedKeyQuery = Type.Object({ key: KeyQuery });

export const EmbedPostsQuery = Type.Object({
  key: KeyQuery,
  limit: Type.Optional(
    Type.String({
      pattern: '^0*(?:[1-9][0-9]?|100)$',
      'x-error': EMBED_MESSAGES.limit,
      description: `posts per page, 1–${EMBED_LIMIT_MAX}, default ${EMBED_LIMIT_DEFAULT}`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,200}$',
      'x-error': EMBED_MESSAGES.cursor,
      description: 'the `nextCursor` of the previous page',
    }),
  ),
});

export const EmbedStreamQuery = Type.Object({
  key: KeyQuery,
  lastEventId: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'the id of the last event received, for clients that cannot send the Last-Event-ID header',
    }),
  ),
});

// Fields a beacon does not name are dropped (the validator removes them), so
// a newer embed's extra field never makes an older server refuse its events.
export const EmbedEvent = Type.Object(
  {
    type: Type.Union(
      EVENT_TYPES.map((t) => Type.Literal(t)),
      { description: 'what happened' },
    ),
    postId: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,14}$',
        description: 'the post (its W2 `postId`); required for impression, click and cta_click',
      }),
    ),
    productId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'the product; required for product_click',
      }),
    ),
  },
  strict,
);

export const EmbedEventsBody = Type.Object(
  {
    events: Type.Array(EmbedEvent, { minItems: 1, maxItems: EVENTS_MAX, 'x-error': EMBED_MESSAGES.events }),
    view: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{8,64}$',
        'x-error': EMBED_MESSAGES.view,
        description:
          'a random id of the page view (made by the page, kept in memory only): an impression or wall load ' +
          'counts once per view, and a beacon sent twice counts once',
      }),
    ),
  },
  strict,
);

export const EmbedWallBody = Type.Object({ wall: EmbedWallSchema }, strict);
export const EmbedPostsBody = Type.Object(
  {
    posts: Type.Array(EmbedPostSchema),
    nextCursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null on the last page' })),
    screen: Type.Optional(EmbedPolledScreenSchema),
  },
  strict,
);

const ErrorBody = (code: number) =>
  Type.Object(
    { responseCode: Type.Literal(code), responseStatus: Type.Literal('error'), responseMessage: Type.String() },
    strict,
  );

// ---------- headers ----------

// @fastify/swagger turns `{ description, ...schema }` into a header object
const header = (description: string, schema: Record<string, unknown>) => ({ description, ...schema });
const CORS = {
  'Access-Control-Allow-Origin': header('the request’s Origin when the key allows it, or * when it allows any', {
    type: 'string',
  }),
  'Access-Control-Expose-Headers': header('headers a page’s script may read', { type: 'string' }),
  Vary: header('answers differ by Origin (and encoding)', { type: 'string' }),
};
const RATE = {
  'X-RateLimit-Limit': header('requests allowed in the window (per key)', { type: 'integer', minimum: 0 }),
  'X-RateLimit-Remaining': header('requests left in the window', { type: 'integer', minimum: 0 }),
  'X-RateLimit-Reset': header('seconds until the window starts again', { type: 'integer', minimum: 0 }),
};
const CACHING = {
  ETag: header('strong entity tag of the body; send it back in If-None-Match for a 304', {
    type: 'string',
    pattern: '^"[^"]*"$',
  }),
  'Cache-Control': header('browsers keep it 5 s, CDNs s-maxage (CDN_MAX_AGE), both serve it stale briefly', {
    type: 'string',
  }),
  'Surrogate-Key': header('cache tags for Fastly and Varnish: everything, the account, the wall (space-separated)', {
    type: 'string',
  }),
  'Cache-Tag': header('the same tags for Cloudflare (comma-separated)', { type: 'string' }),
  'CDN-Tag': header('the same tags for Bunny (comma-separated)', { type: 'string' }),
  'Content-Encoding': header('br or gzip when accepted and the body is 1 KiB or more', { enum: ['br', 'gzip'] }),
};

const json = (schema: TSchema) => ({ 'application/json': { schema } });
const response = (description: string, headers: Record<string, unknown>, content?: Record<string, unknown>) => ({
  description,
  headers,
  ...(content ? { content } : { type: 'null' }),
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'a query parameter is malformed; the message names it',
  401: 'key missing, unknown, revoked, or not a publishable key (a user_key is refused)',
  403: 'the key belongs to another wall, or the page that sent the request (its Origin; another site’s page without one) is not one the key allows',
  404: 'the wall does not exist or is deleted',
  429: 'rate limited (per client address, or per key for reads the cache cannot answer), or (stream) too many open streams from this address: see Retry-After',
  500: 'internal fault: a generic message',
  503: 'the store is unreachable, or (stream) too many open streams: poll instead; or the instance is shutting down (Retry-After)',
};

/** The responses of an embed route: its success and every error, each with the headers it carries. */
export function embedResponses(success: Record<number, unknown>): Record<number, unknown> {
  const errors = Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS).map(([code, description]) => [
      code,
      response(
        description,
        code === '429'
          ? { ...CORS, ...RATE, 'Retry-After': header('seconds to wait', { type: 'integer', minimum: 0 }) }
          : { ...CORS, ...RATE },
        json(ErrorBody(Number(code))),
      ),
    ]),
  );
  return { ...success, ...errors };
}

export const readResponses = (body: TSchema, description: string) =>
  embedResponses({
    200: response(description, { ...CORS, ...RATE, ...CACHING }, json(body)),
    304: response('not modified: If-None-Match names the current ETag; no body', { ...CORS, ...RATE, ...CACHING }),
  });

export const eventsResponses = () => {
  const all = embedResponses({
    202: response(
      'accepted: the events are counted (after dropping those of bots, repeats, and posts or products not on the wall)',
      { ...CORS, ...RATE },
      json(Type.Object({}, strict)),
    ),
  }) as Record<string, { description: string }>;
  all[400] = { ...all[400]!, description: 'the body is not JSON, or not a beacon; the message names the problem' };
  all[413] = response('body over 1 MiB', { ...CORS, ...RATE }, json(ErrorBody(413)));
  return all;
};

export const streamResponses = () =>
  embedResponses({
    200: response(
      'Server-Sent Events: `retry: 2000`, then `upsert` (data: an EmbedPost), `remove` (data: {"id"}) and `reset` ' +
        '(data: {}; reload the first page) events with increasing ids, and `: ping` comments. Send Last-Event-ID ' +
        '(or lastEventId=) to resume. `screen` events (no id; data: the wall’s whole live screen state — version, ' +
        'serverNow, paused, spotlight {post, until}, slide {slide, until}, hiddenPostIds, layout, theme, qr, schedule, ' +
        'slides) come first on every (re)connection and after every change: apply the highest version.',
      {
        ...CORS,
        ...RATE,
        'Cache-Control': header('never cached', { const: 'no-cache, no-transform' }),
        'X-Accel-Buffering': header('proxies pass events on at once', { const: 'no' }),
      },
      {
        'text/event-stream': {
          schema: {
            type: 'string',
            description: 'a sequence of SSE frames, each one of these',
            anyOf: [
              { title: 'retry', pattern: '^retry: \\d+\\n\\n' },
              { title: 'heartbeat', pattern: '^: ping\\n\\n' },
              { title: 'upsert (data: an EmbedPost)', pattern: '^event: upsert\\nid: \\d+\\ndata: \\{.*\\}\\n\\n' },
              {
                title: 'remove (data: {"id": post id})',
                pattern: '^event: remove\\nid: \\d+\\ndata: \\{"id":"\\d+"\\}\\n\\n',
              },
              { title: 'reset (data: {})', pattern: '^event: reset\\nid: \\d+\\ndata: \\{\\}\\n\\n' },
            ],
          },
        },
      },
    ),
  });
