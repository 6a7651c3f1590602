// The management API's own error handler: the v2 envelope (responseCode,
// responseStatus, responseMessage; status line = responseCode), JSON only,
// plus `fieldErrors` on every 400. Nothing internal ever reaches a client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isForeignKeyViolation, isStoreUnavailable, isUniqueViolation } from '../../store/dialect.js';
import { ManageError, type FieldError } from '../../domain/errors.js';
import { MESSAGES } from '../errors.js';

export function sendManageError(reply: FastifyReply, code: number, message: string, fieldErrors?: FieldError[]) {
  const body =
    code === 400
      ? { responseCode: code, responseStatus: 'error', responseMessage: message, fieldErrors: fieldErrors ?? [] }
      : { responseCode: code, responseStatus: 'error', responseMessage: message };
  return reply.code(code).type('application/json; charset=utf-8').send(body);
}

const bodyError = (reply: FastifyReply, message: string) =>
  sendManageError(reply, 400, message, [{ field: 'body', message }]);

export function manageErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ManageError) {
    if (error.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="wallery-manage"');
    return sendManageError(reply, error.status, error.message, error.fieldErrors);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendManageError(reply, 413, MESSAGES.tooLarge);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return bodyError(reply, MESSAGES.bodyNotObject);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return bodyError(reply, 'Content-Length does not match the body');
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return bodyError(reply, MESSAGES.badJson);
  if (isStoreUnavailable(error)) {
    request.log.error({ err: error }, 'store unavailable');
    return sendManageError(reply, 503, MESSAGES.unavailable);
  }
  if (isUniqueViolation(error))
    return sendManageError(reply, 409, 'a concurrent change took this value; read the resource again and retry');
  if (isForeignKeyViolation(error))
    return sendManageError(reply, 409, 'a record this change refers to was removed meanwhile; retry');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return bodyError(reply, 'request is malformed');
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendManageError(reply, 500, MESSAGES.internal);
}
