// OpenTelemetry tracing through the official Node SDK, started by the CLI
// (src/cli/main.ts) before anything loads `http`, Fastify or `pg`, and only
// when OTEL_EXPORTER_OTLP_ENDPOINT is set. Everything else is the SDK's own
// standard configuration from the environment: OTEL_EXPORTER_OTLP_PROTOCOL
// (http/protobuf by default, http/json, grpc), OTEL_SERVICE_NAME (default
// here: wallery), OTEL_TRACES_SAMPLER, OTEL_BSP_SCHEDULE_DELAY, headers…
//
// Spans: one server span per HTTP request (instrumentation-http), Fastify's
// request, hooks and handler named after the route pattern (@fastify/otel,
// on every Fastify instance as it initializes), and each PostgreSQL query
// (instrumentation-pg). Keys in query strings (`user_key`, `key`) are
// credentials: redacted before a span leaves the process.
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Query parameters whose values are secrets (v2 user keys, the embed's publishable keys). */
export const SECRET_QUERY_PARAMS = ['user_key', 'key', 'token', 'access_token'];

export function startTracing(): NodeSDK {
  process.env.OTEL_SERVICE_NAME ??= 'wallery';
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        // scrapes and probes every few seconds would drown the traces that matter
        ignoreIncomingRequestHook: (request) => /^\/(?:metrics|healthz|readyz)(?:\?|$)/.test(request.url ?? ''),
        redactedQueryParamsServer: SECRET_QUERY_PARAMS,
        redactedQueryParams: SECRET_QUERY_PARAMS,
      }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // url.path is the path (semantic conventions); Fastify's request.url carries the query, keys and all
        requestHook: (span, request) => span.setAttribute('url.path', request.url.split('?', 1)[0]!),
      }),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
}
