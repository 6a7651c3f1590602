// Picks the response format from `format` (contract §1): absent → json,
// case-insensitive, anything else → json here and a 400 from the validator.
import type { FastifyRequest } from 'fastify';
import type { Format } from './envelope.js';

export function resolveFormat(request: FastifyRequest): Format {
  const value = (request.query as Record<string, unknown> | undefined)?.format;
  return typeof value === 'string' && value.toLowerCase() === 'xml' ? 'xml' : 'json';
}
