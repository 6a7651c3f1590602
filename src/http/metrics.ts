// `GET /metrics` (Prometheus text format) and the hook that times every
// answer. The route family of each route is worked out once, when the route
// is registered, and kept in its config: the per-request cost is a lookup
// and one histogram observation.
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onRequestHookHandler,
} from 'fastify';
import type { Metrics } from '../metrics/metrics.js';
import { ROUTE_FAMILIES, routeFamilyOf, UNMATCHED } from '../metrics/labels.js';
import { sendError } from './envelope.js';
import { MESSAGES } from './errors.js';

export interface MetricsRouteOptions {
  /** METRICS_TOKEN: when set, a scrape needs `Authorization: Bearer <token>` */
  token: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** index into ROUTE_FAMILIES (src/metrics/labels.ts), set when the route is registered */
    metricsFamily?: number;
  }
}

export const METRICS_PATH = '/metrics';
const EMBED_STREAM = ROUTE_FAMILIES.indexOf('embed_stream');
const UNAUTHORIZED = 'metrics need Authorization: Bearer <METRICS_TOKEN>';

/**
 * Times every answer of `app` (and of the routes registered after this call)
 * into `metrics`. Call before any route is registered.
 */
export function instrumentRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRoute', (route) => {
    // a config object of its own: routes may share one (all commerce routes do)
    const family = ROUTE_FAMILIES.indexOf(routeFamilyOf(route.url, route.config ?? {}));
    route.config = { ...route.config, metricsFamily: family };
    // An SSE stream takes its response over (reply.hijack): Fastify runs no
    // onResponse for it, so it is timed when its connection closes — however it ends.
    if (family === EMBED_STREAM) {
      const timeStream: onRequestHookHandler = (request, reply, done) => {
        reply.raw.once('close', () =>
          metrics.observeRequest(family, request.method, reply.raw.statusCode, reply.elapsedTime / 1000),
        );
        done();
      };
      const own = route.onRequest ?? [];
      route.onRequest = [...(Array.isArray(own) ? own : [own]), timeStream];
    }
  });
  app.addHook('onResponse', (request, reply, done) => {
    // a route without a pattern is the not-found handler
    const family =
      request.routeOptions.url === undefined ? UNMATCHED : (request.routeOptions.config?.metricsFamily ?? UNMATCHED);
    if (family !== EMBED_STREAM)
      metrics.observeRequest(family, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** `GET /metrics`: the scrape, behind the token when one is configured. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, options: MetricsRouteOptions): void {
  const expected = options.token === null ? null : digest(options.token);
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (expected && !bearerMatches(request.headers.authorization, expected)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return sendError(reply, request.format, 401, UNAUTHORIZED);
    }
    const { body, contentType } = await metrics.scrape();
    return reply.type(contentType).header('Cache-Control', 'no-store').send(body);
  });
}

/** Compared as digests: equal lengths, so timingSafeEqual tells nothing about the token's length either. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/**
 * A server of `/metrics` alone, for a process without the API (`wallery
 * worker` on METRICS_PORT): same token rule, same envelope for its errors.
 */
export async function buildMetricsServer(metrics: Metrics, options: MetricsRouteOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, return503OnClosing: true });
  app.decorateRequest('format', 'json');
  instrumentRequests(app, metrics);
  registerMetricsRoute(app, metrics, options);
  app.setNotFoundHandler((request, reply) => sendError(reply, request.format, 404, MESSAGES.routeNotFound));
  await app.ready();
  return app;
}
