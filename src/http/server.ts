// The HTTP server: Fastify with the envelope-aware error, not-found and
// method-not-allowed handling shared by every route family.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { completeContext, type AppContext } from './context.js';
import { clientErrorHandler } from './client-error.js';
import { sendError } from './envelope.js';
import { MESSAGES } from './errors.js';
import { errorHandler } from './error-handler.js';
import { resolveFormat } from './format.js';
import { registerV2 } from './v2/index.js';
import { registerHealth } from './health.js';
import { registerDrain } from './drain.js';
import { registerManage, type ManageOptions } from './manage/index.js';
import { registerEmbed, type EmbedOptions } from './embed/index.js';
import { registerOpenApi } from './openapi.js';
import { externalWriteDetector } from '../store/dialect.js';
import type { TrustProxy, WebConfig } from '../config.js';
import { registerCdn, type CdnOptions } from './cdn.js';
import { registerWeb } from './web/index.js';
import { registerSubmit } from './submit/index.js';
import { registerConnect } from './connect/index.js';
import { registerMedia } from './media/index.js';
import { sendLanding, setDemoWalls, wantsLanding } from './web/landing.js';
import { guideBuilt } from './web/guide.js';

/** Whether this install has its documentation site built (the start banner links it only then). */
export { guideBuilt, setDemoWalls };
import { instrumentRequests, registerMetricsRoute, type MetricsRouteOptions } from './metrics.js';

export const BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  logger?: FastifyServerOptions['logger'];
  /** embed API settings (stream cap, heartbeat, rate limits); defaults otherwise */
  embed?: EmbedOptions;
  /** management API settings (the per-token write rate limit); none otherwise */
  manage?: ManageOptions;
  /** which proxies' X-Forwarded-For is believed (client addresses for the embed's per-IP limit, logs) */
  trustProxy?: TrustProxy;
  /** `GET /metrics` (METRICS, METRICS_TOKEN); default on, no token. Off, or without `ctx.metrics`: no route (404). */
  metrics?: MetricsRouteOptions & { enabled: boolean };
  /** the pages and files for browsers (WEB_SOURCE_MAPS, LANDING_REDIRECT); defaults otherwise */
  web?: WebConfig;
  /** CDN caching (s-maxage, tag prefix) and purge targets (CDN_*); none: short s-maxage, no purges */
  cdn?: CdnOptions;
}

/** Fastify's trustProxy; a number of hops as the function proxy-addr makes of it (Fastify's types take no number). */
function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export async function buildServer(ctx: AppContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: trustProxyOption(options.trustProxy ?? false),
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
    // Query and path values stay strings (the schemas' patterns decide),
    // bodies are never coerced: `"content": 123` is an error, not "123".
    ajv: { customOptions: { coerceTypes: false, keywords: ['x-error'], allErrors: false } },
    // requests refused while closing are answered in the API's envelope (drain.ts)
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => {
      request.format = resolveFormat(request);
      void sendError(
        reply,
        request.format,
        400,
        error.code === 'FST_ERR_BAD_URL' ? 'URL is malformed' : 'request is malformed',
      );
    },
  });
  // A bare context (tests) gets the default parts, closed with the server;
  // openRuntime has built them all from the configuration.
  const closeDefaults = completeContext(ctx);
  app.addHook('onClose', closeDefaults);
  if (ctx.store.sqlite && !ctx.externalWrites) ctx.externalWrites = externalWriteDetector(ctx.store.sqlite);
  app.decorate('ctx', ctx);
  // before any route: each route's family is worked out as it is registered
  if (ctx.metrics) instrumentRequests(app, ctx.metrics);
  app.decorateRequest('format', 'json');
  app.decorateRequest('caller', null as never);

  // Every route is also registered in a side router so that a request the
  // main router rejects can be told apart: known path, other method → 405.
  const known = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (!known.hasRoute(method as HTTPMethod, route.url)) known.on(method as HTTPMethod, route.url, () => undefined);
    }
  });

  // Bodies are JSON whatever Content-Type says (widget embeds often send
  // text/plain to avoid a CORS preflight); the limit is 1 MiB.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    app.getDefaultJsonParser('error', 'remove'),
  );

  // Every call passes these two: callback style, so they cost no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    request.format = resolveFormat(request);
    done();
  });
  registerDrain(app);

  // Walls are embedded on other sites: browsers may read v2 answers cross-origin.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/v2/')) {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Access-Control-Expose-Headers', CORS_EXPOSED);
    }
    done(null, payload);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (wantsLanding(request, path)) return sendLanding(reply, guideBuilt(), options.web?.landingRedirect ?? null);
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => known.find(m, path) !== null);
    if (allowed.length > 0 && isCorsPreflight(request.method, request.headers)) {
      return reply
        .code(204)
        .header('Access-Control-Allow-Methods', allowed.join(', '))
        .header('Access-Control-Allow-Headers', 'Content-Type, Idempotency-Key')
        .header('Access-Control-Max-Age', '86400')
        .send();
    }
    // A path a route of this very method matches, yet nothing answered it: a
    // resource under a wildcard route (a static file) that does not exist.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !(allowed as readonly string[]).includes(method)) {
      if (allowed.includes('GET')) allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD' as never);
      reply.header('Allow', allowed.join(', '));
      return sendError(reply, request.format, 405, MESSAGES.methodNotAllowed);
    }
    return sendError(reply, request.format, 404, MESSAGES.routeNotFound);
  });

  app.setErrorHandler(
    errorHandler((reply, request, failure) => sendError(reply, request.format, failure.status, failure.message), {
      conflicts: false,
    }),
  );

  // the docs first: they collect every route registered after them
  await registerOpenApi(app);
  await registerHealth(app);
  const metrics = options.metrics ?? { enabled: true, token: null };
  if (ctx.metrics && metrics.enabled) registerMetricsRoute(app, ctx.metrics, metrics);
  registerCdn(app, options.cdn);
  await registerV2(app);
  await registerManage(app, options.manage);
  await registerEmbed(app, options.embed);
  await registerMedia(app);
  await registerSubmit(app);
  await registerConnect(app);
  await registerWeb(app, { sourceMaps: options.web?.sourceMaps ?? false });
  return app;
}

const CORS_EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/** A CORS preflight (not a plain OPTIONS call, which stays 405 on a known path). */
function isCorsPreflight(method: string, headers: Record<string, unknown>): boolean {
  return (
    method === 'OPTIONS' &&
    typeof headers.origin === 'string' &&
    typeof headers['access-control-request-method'] === 'string'
  );
}
