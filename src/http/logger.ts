// Fastify's logger (pino) with secrets kept out: user keys in URLs are
// redacted, authorization headers are never serialized.
import type { FastifyServerOptions } from 'fastify';
import { redactUrl } from './redact.js';

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    serializers: {
      req(request: { method: string; url: string; ip?: string }) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], remove: true },
  };
}
