// The HTTP server: Fastify with the envelope-aware error, not-found and
// method-not-allowed handling shared by every route family.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { AppContext } from './context.js';
import { clientErrorHandler } from './client-error.js';
import { sendError } from './envelope.js';
import { ApiError, MESSAGES, validationMessage } from './errors.js';
import { resolveFormat } from './format.js';
import { registerV2 } from './v2/index.js';
import { registerHealth } from './health.js';
import { registerManage } from './manage/index.js';
import { registerOpenApi } from './openapi.js';
import { registerWeb } from './web/index.js';
import { StoreQuota } from '../quota/store-quota.js';
import { ResponseCache } from './v2/response-cache.js';
import { externalWriteDetector, isSqliteBusy } from '../store/dialect.js';
import { KeyCache } from './key-cache.js';
import { DEFAULT_CACHE_TTL_MS } from '../config.js';

export const BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  logger?: FastifyServerOptions['logger'];
}

export async function buildServer(ctx: AppContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
    // Query and path values stay strings (the schemas' patterns decide),
    // bodies are never coerced: `"content": 123` is an error, not "123".
    ajv: { customOptions: { coerceTypes: false, keywords: ['x-error'], allErrors: false } },
    return503OnClosing: true,
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
  if (!ctx.quota) {
    const quota = new StoreQuota(ctx.store.db);
    ctx.quota = quota;
    app.addHook('onClose', () => quota.close());
  }
  if (ctx.store.sqlite && !ctx.externalWrites) ctx.externalWrites = externalWriteDetector(ctx.store.sqlite);
  if (ctx.cache === undefined) {
    const cache = defaultResponseCache(ctx);
    ctx.cache = cache;
    app.addHook('onClose', async () => cache.close());
  }
  if (ctx.keys === undefined) {
    const keys = defaultKeyCache(ctx);
    ctx.keys = keys;
    app.addHook('onClose', async () => keys.close());
  }
  app.decorate('ctx', ctx);
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

  app.addHook('onRequest', async (request) => {
    request.format = resolveFormat(request);
  });

  // Walls are embedded on other sites: browsers may read v2 answers cross-origin.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/v2/')) {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Access-Control-Expose-Headers', CORS_EXPOSED);
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
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

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const format = request.format;
    if (error instanceof ApiError) return sendError(reply, format, error.statusCode, error.message);
    if (error.validation) {
      const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
      return sendError(reply, format, 400, validationMessage(error.validation, error.validationContext, schema));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, format, 413, MESSAGES.tooLarge);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, format, 400, MESSAGES.bodyNotObject);
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(reply, format, 400, 'Content-Length does not match the body');
    }
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return sendError(reply, format, 400, MESSAGES.badJson);
    }
    if (isStoreUnavailable(error)) {
      request.log.error({ err: error }, 'store unavailable');
      return sendError(reply, format, 503, MESSAGES.unavailable);
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // A client error Fastify raised that the contract does not name; keep the
      // code family but never echo internal text.
      return sendError(reply, format, 400, 'request is malformed');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, format, 500, MESSAGES.internal);
  });

  // the docs first: they collect every route registered after them
  await registerOpenApi(app);
  await registerHealth(app);
  await registerV2(app);
  await registerManage(app);
  await registerWeb(app);
  return app;
}

export const DEFAULT_RESPONSE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A response cache invalidated by the change bus, which also hears of other
 * processes' writes (PostgreSQL notifications; SQLite's `externalWrites` in
 * the v2 hook), its entries living `ttlMs` at most.
 */
export function defaultResponseCache(
  ctx: AppContext,
  maxBytes = DEFAULT_RESPONSE_CACHE_BYTES,
  ttlMs = DEFAULT_CACHE_TTL_MS,
): ResponseCache {
  return new ResponseCache(ctx.changes, { maxBytes, ttlMs });
}

export function defaultKeyCache(ctx: AppContext, ttlMs = DEFAULT_CACHE_TTL_MS): KeyCache {
  return new KeyCache(ctx.changes, { ttlMs });
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

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  '57P01', // admin_shutdown
  '57P02',
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
]);

/** PostgreSQL, SQLite or Redis unreachable or going away: a 503, not a 500. */
export function isStoreUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; name?: string } | null;
  if (!e) return false;
  if ((e.code && UNAVAILABLE_CODES.has(e.code)) || isSqliteBusy(e)) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|enableOfflineQueue|Connection is closed|Command timed out/i.test(
    e.message ?? '',
  );
}
