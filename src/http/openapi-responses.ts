// What the OpenAPI document adds to every operation beyond the route's own
// schemas: the statuses the server layer answers for any route (client
// errors from Node's HTTP parser, the body limit, faults), the response
// headers (quota, CORS, caching, authentication), and the answers to requests
// that match no operation (components.responses). Each rule here mirrors the
// code that sends the status or header; the conformance test of the API suites
// (test/helpers/conformance.ts) holds the service to it.
import type { TSchema } from 'typebox';
import { renderBody, errorEnvelope as errorBody } from './envelope.js';
import { MESSAGES } from './errors.js';
import { ErrorEnvelope as manageErrorEnvelope } from './manage/schemas.js';
import { errorEnvelope as v2ErrorEnvelope } from './v2/schemas.js';
import { tooManyWrites } from './manage/write-limit.js';

type Json = Record<string, unknown>;
interface Header {
  description: string;
  required: boolean;
  schema: Json;
}
interface Response {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, Json>;
}
type Operation = { responses: Record<string, Response> };
type Family = 'v2' | 'manage' | 'media' | 'health';

export const XML_DESCRIPTION =
  'The same envelope as XML (format=xml): root element `xml`, one child per field in the JSON order; arrays of objects are ' +
  'repeated sibling elements named after the field (`feeds`, `posts`, `postProducts`, `postDetail`), `hotspot` is two ' +
  'repeated elements, the widget `childNode` list is ONE element holding image, video, image, video…; null is the text ' +
  '`null`, an empty string an empty element. An error envelope orders responseStatus, responseMessage, responseCode.';

/** What Node's HTTP parser answers before any route (src/http/client-error.ts): JSON, whatever `format` says. */
const JSON_ONLY = new Set([408, 431]);

/** A v2 body in both forms (contract §1): JSON, and the same envelope as XML. */
export function v2Content(schema: TSchema | Json, example?: (format: 'json' | 'xml') => unknown): Record<string, Json> {
  return {
    'application/json': { schema, ...(example ? { example: example('json') } : {}) },
    'application/xml': {
      schema: { ...schema, description: XML_DESCRIPTION, xml: { name: 'xml' } },
      ...(example ? { example: example('xml') } : {}),
    },
  };
}

/** The example of an error answer in either form. */
export const errorExample = (code: number, message: string) => (format: 'json' | 'xml') =>
  format === 'json' ? errorBody('json', code, message) : renderBody('xml', errorBody('xml', code, message));

// ---------- statuses every route can answer ----------

const SHARED_STATUS: Record<number, { description: string; message: string }> = {
  400: {
    description: 'a request HTTP itself cannot parse (bad header bytes, an unknown method, a Content-Length that lies)',
    message: MESSAGES.badRequest,
  },
  408: { description: 'the request line and headers did not arrive in time', message: MESSAGES.requestTimeout },
  413: { description: 'request body over 1 MiB', message: MESSAGES.tooLarge },
  431: { description: 'request line or headers over the server’s limit (16 KiB)', message: MESSAGES.headersTooLarge },
  500: { description: 'internal fault: a generic message, nothing internal', message: MESSAGES.internal },
  503: {
    description:
      'the store is unreachable: a generic message; Redis (the shared cache) is: a message that names it; or the ' +
      'instance is shutting down: `Retry-After` and `Connection: close`, nothing was done, retry (on another instance)',
    message: MESSAGES.unavailable,
  },
};

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** The shared statuses of one operation (contract §2): which apply depends on its family and method. */
function sharedStatuses(family: Family, method: string): number[] {
  const codes = [400, 408, 431];
  if (family === 'health') return codes;
  if (BODY_METHODS.has(method)) codes.push(413);
  return [...codes, 500, 503];
}

function sharedResponse(family: Family, code: number): Response {
  const { description, message } = SHARED_STATUS[code]!;
  if (family === 'v2' && !JSON_ONLY.has(code))
    return { description, content: v2Content(v2ErrorEnvelope(code), errorExample(code, message)) };
  // manage 400s name the bad fields; a 400 HTTP itself refuses has none to name
  const schema = family === 'manage' && code !== 400 ? manageErrorEnvelope(code, description) : v2ErrorEnvelope(code);
  return { description, content: { 'application/json': { schema, example: errorExample(code, message)('json') } } };
}

// ---------- response headers ----------

const header = (description: string, schema: Json, required: boolean): Header => ({ description, required, schema });
const EPOCH = { type: 'integer', minimum: 0 };

const HEADERS = {
  'X-RateLimit-Limit': (required: boolean) =>
    header('the account’s daily call limit', { type: 'integer', minimum: 0 }, required),
  'X-RateLimit-Remaining': (required: boolean) =>
    header('calls left today (UTC), this one counted', { type: 'integer', minimum: 0 }, required),
  'X-RateLimit-Reset': (required: boolean) =>
    header('when the count starts again: epoch seconds of the next 00:00 UTC', EPOCH, required),
  'Retry-After': () => header('seconds until the quota resets', { type: 'integer', minimum: 1 }, true),
  'Retry-After (writes)': () =>
    header('seconds until this token may write again', { type: 'integer', minimum: 1 }, true),
  'Access-Control-Allow-Origin': (required: boolean) =>
    header('walls are embedded on other sites: any origin may read', { const: '*' }, required),
  'Access-Control-Expose-Headers': (required: boolean) =>
    header('the quota headers a browser script may read', { type: 'string' }, required),
  ETag: (required: boolean) =>
    header(
      'strong entity tag of the body; send it back in If-None-Match for a 304. Present while the response cache is on (RESPONSE_CACHE_MB > 0, the default)',
      { type: 'string', pattern: '^"[^"]*"$' },
      required,
    ),
  'Cache-Control': (required: boolean) =>
    header('reuse briefly, then revalidate with the ETag', { const: 'private, max-age=5' }, required),
  Vary: (required: boolean) => header('the body depends on Accept-Encoding', { const: 'Accept-Encoding' }, required),
  'Content-Encoding': () =>
    header('br or gzip, when Accept-Encoding allows it and the body is 1 KiB or more', { enum: ['br', 'gzip'] }, false),
  'WWW-Authenticate': () => header('the operator token scheme', { const: 'Bearer realm="wallery-manage"' }, true),
  Allow: () => header('the methods the path has', { type: 'string' }, true),
  'Retry-After (shutdown)': () =>
    header('the instance is shutting down: seconds to wait, or retry on another instance now', EPOCH, false),
} as const;

const CORS = (required: boolean) => ({
  'Access-Control-Allow-Origin': HEADERS['Access-Control-Allow-Origin'](required),
  'Access-Control-Expose-Headers': HEADERS['Access-Control-Expose-Headers'](required),
});
const QUOTA = (required: boolean) => ({
  'X-RateLimit-Limit': HEADERS['X-RateLimit-Limit'](required),
  'X-RateLimit-Remaining': HEADERS['X-RateLimit-Remaining'](required),
  'X-RateLimit-Reset': HEADERS['X-RateLimit-Reset'](required),
});
const CACHING = (required: boolean) => ({
  ETag: HEADERS.ETag(required),
  'Cache-Control': HEADERS['Cache-Control'](required),
  Vary: HEADERS.Vary(required),
});

/**
 * The headers of one v2 answer. CORS and quota headers come from hooks that
 * run for every routed request once the key is known (src/http/server.ts,
 * src/http/auth.ts): certain on answers only a route gives, possible on those
 * that can also come from before the key is read (400, 500, 503), never on a
 * 401 (quota) or on what Node's parser answers (408, 431). Reads add the
 * caching headers (src/http/v2/shared.ts `sendRead`).
 */
function v2Headers(code: number, cachedRead: boolean): Record<string, Header> {
  if (JSON_ONLY.has(code)) return {};
  if (code === 401) return CORS(true);
  const certain = ![400, 500, 503].includes(code);
  const headers: Record<string, Header> = { ...CORS(certain), ...QUOTA(certain) };
  if (code === 429) headers['Retry-After'] = HEADERS['Retry-After']();
  if (cachedRead && code === 304) Object.assign(headers, CACHING(true));
  if (cachedRead && code === 200)
    Object.assign(headers, CACHING(false), { 'Content-Encoding': HEADERS['Content-Encoding']() });
  return headers;
}

const familyOf = (path: string): Family =>
  path.startsWith('/api/v2/')
    ? 'v2'
    : path.startsWith('/api/manage/')
      ? 'manage'
      : path.startsWith('/media/')
        ? 'media'
        : 'health';

/** A management write over the token's rate limit (src/http/manage/write-limit.ts). */
const writesLimited = (): Response => ({
  description: 'this token has used its writes for the minute (MANAGE_WRITE_RATE_LIMIT): retry after Retry-After',
  headers: { 'Retry-After': HEADERS['Retry-After (writes)']() },
  content: {
    'application/json': {
      schema: manageErrorEnvelope(429, 'too many writes with this token'),
      example: errorExample(429, tooManyWrites(1200, 42))('json'),
    },
  },
});

/** Adds the shared statuses and every response's headers to each operation of the document. */
export function completeOperations(doc: { paths?: Record<string, Record<string, Operation>> }): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const family = familyOf(path);
    for (const [method, op] of Object.entries(item)) {
      for (const code of sharedStatuses(family, method)) op.responses[code] ??= sharedResponse(family, code);
      if (family === 'manage' && BODY_METHODS.has(method)) op.responses[429] ??= writesLimited();
      // an action whose body fields are all optional may be called without a body (src/http/manage/validation.ts)
      const body = (op as { requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> } })
        .requestBody;
      const bodySchema = body?.content?.['application/json']?.schema as
        { type?: string; required?: unknown[]; minProperties?: number } | undefined;
      if (
        family === 'manage' &&
        body &&
        bodySchema?.type === 'object' &&
        (bodySchema.required ?? []).length === 0 &&
        (bodySchema.minProperties ?? 0) === 0
      )
        body.required = false;
      const cachedRead = '304' in op.responses;
      for (const [code, response] of Object.entries(op.responses)) {
        const headers =
          family === 'v2'
            ? v2Headers(Number(code), cachedRead)
            : family === 'manage' && code === '401'
              ? { 'WWW-Authenticate': HEADERS['WWW-Authenticate']() }
              : {};
        if (code === '503') headers['Retry-After'] = HEADERS['Retry-After (shutdown)']();
        if (Object.keys(headers).length > 0) response.headers = { ...response.headers, ...headers };
      }
      op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}

// ---------- requests that match no operation ----------

const anyFamilyError = (code: number, message: string) => v2Content(v2ErrorEnvelope(code), errorExample(code, message));

/**
 * The answers to requests no operation matches (src/http/server.ts, the
 * not-found handler and the router's bad-URL error), keyed by status in
 * `x-unrouted`. In `format=xml` they are XML; under /api/v2/ they carry the
 * CORS headers.
 */
export const UNROUTED_RESPONSES: Record<string, { status: number; response: Response }> = {
  RouteNotFound: {
    status: 404,
    response: {
      description: 'no operation has this path',
      headers: CORS(false),
      content: anyFamilyError(404, MESSAGES.routeNotFound),
    },
  },
  MethodNotAllowed: {
    status: 405,
    response: {
      description: 'the path exists, not with this method; Allow lists the methods it has',
      headers: { Allow: HEADERS.Allow(), ...CORS(false) },
      content: anyFamilyError(405, MESSAGES.methodNotAllowed),
    },
  },
  MalformedRequest: {
    status: 400,
    response: {
      description:
        'the URL cannot be decoded (`URL is malformed`), or HTTP itself cannot parse the request: bad header bytes, an unknown method, a Content-Length that lies (`Bad request`, always JSON)',
      content: anyFamilyError(400, 'URL is malformed'),
    },
  },
  CorsPreflight: {
    status: 204,
    response: {
      description: 'a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method) of a known path',
      headers: {
        'Access-Control-Allow-Methods': header('the methods the path has', { type: 'string' }, true),
        'Access-Control-Allow-Headers': header(
          'request headers a browser may send',
          { const: 'Content-Type, Idempotency-Key' },
          true,
        ),
        'Access-Control-Max-Age': header('seconds a browser may keep the answer', { const: '86400' }, true),
        ...CORS(false),
      },
    },
  },
  ShuttingDown: {
    status: 503,
    response: {
      description:
        'the instance is shutting down (src/http/drain.ts): any path, in the family’s envelope, with `Retry-After` and `Connection: close`',
      headers: { 'Retry-After': HEADERS['Retry-After (shutdown)'](), ...CORS(false) },
      content: anyFamilyError(503, MESSAGES.shuttingDown),
    },
  },
  RequestTimeout: { status: 408, response: sharedResponse('health', 408) },
  HeadersTooLarge: { status: 431, response: sharedResponse('health', 431) },
};

/** components.responses of the document: the unrouted answers, each marked with its status. */
export function unroutedComponents(): Record<string, Response & { 'x-status': number }> {
  return Object.fromEntries(
    Object.entries(UNROUTED_RESPONSES).map(([name, { status, response }]) => [
      name,
      { ...response, 'x-status': status },
    ]),
  );
}
