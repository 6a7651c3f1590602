// The one error handler of every API: it decides what a failure means —
// ours (ApiError, ManageError), Fastify's, the validator's, the database's —
// and each API family renders that decision in its own envelope. Nothing
// internal (stack, SQL, file path) ever reaches a client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ManageError, type FieldError } from '../domain/errors.js';
import { isRedisUnavailable, reportRedisDown } from '../redis/client.js';
import { classifyDbError } from '../store/dialect.js';
import { ApiError, MESSAGES, validationMessage } from './errors.js';

/** What the client is told. */
export interface Failure {
  status: number;
  message: string;
  /** every bad field (400 of the management API) */
  fieldErrors?: FieldError[];
  /** the failure is about the body as a whole, not one field of it */
  body?: boolean;
}

/** How an API family renders a failure. */
export type FailureRenderer = (reply: FastifyReply, request: FastifyRequest, failure: Failure) => unknown;

const CONFLICT = {
  unique: 'a concurrent change took this value; read the resource again and retry',
  'foreign-key': 'a record this change refers to was removed meanwhile; retry',
} as const;

/** The failure an error means; logs what the client is not told. */
export function failureOf(error: FastifyError, request: FastifyRequest, options: FamilyOptions): Failure {
  if (error instanceof ApiError) return { status: error.statusCode, message: error.message };
  if (error instanceof ManageError)
    return { status: error.status, message: error.message, fieldErrors: error.fieldErrors };
  if (error.validation) {
    const schema = request.routeOptions.schema as Record<string, unknown> | undefined;
    return { status: 400, message: validationMessage(error.validation, error.validationContext, schema) };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: MESSAGES.tooLarge };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: MESSAGES.bodyNotObject, body: true };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'Content-Length does not match the body', body: true };
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, message: MESSAGES.badJson, body: true };
  }
  if (isRedisUnavailable(error)) {
    // one line per outage, not one stack per request (the store is fine)
    const redis = request.server.ctx.shared?.redis;
    if (redis) reportRedisDown(redis, error);
    return { status: 503, message: MESSAGES.redisUnavailable };
  }
  const db = classifyDbError(error);
  if (db === 'unavailable') {
    request.log.error({ err: error }, 'store unavailable');
    return { status: 503, message: MESSAGES.unavailable };
  }
  // a write that lost a race with a concurrent one
  if (options.conflicts && (db === 'unique' || db === 'foreign-key')) return { status: 409, message: CONFLICT[db] };
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    // a client error Fastify raised that no rule names: keep the family, never echo internal text
    return { status: 400, message: 'request is malformed', body: true };
  }
  request.log.error({ err: error }, 'unhandled error');
  return { status: 500, message: MESSAGES.internal };
}

export interface FamilyOptions {
  /**
   * A unique or foreign-key violation is a 409 (the management API: its
   * writes can race). v2 has no 409 (contract §2): its writes never collide
   * (C3/W3's one unique value, the idempotency key, is handled where it is written).
   */
  conflicts: boolean;
}

/** A Fastify error handler rendering every failure through `render`. */
export function errorHandler(render: FailureRenderer, options: FamilyOptions) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    render(reply, request, failureOf(error, request, options));
}
