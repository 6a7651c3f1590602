// How the management API renders a failure: the v2 envelope (responseCode,
// responseStatus, responseMessage; status line = responseCode), JSON only,
// plus `fieldErrors` on every 400. What a failure is, is decided once for
// every API (src/http/error-handler.ts).
import type { FastifyReply } from 'fastify';
import type { FieldError } from '../../domain/errors.js';
import { errorHandler } from '../error-handler.js';

export function sendManageError(reply: FastifyReply, code: number, message: string, fieldErrors?: FieldError[]) {
  const body =
    code === 400
      ? { responseCode: code, responseStatus: 'error', responseMessage: message, fieldErrors: fieldErrors ?? [] }
      : { responseCode: code, responseStatus: 'error', responseMessage: message };
  return reply.code(code).type('application/json; charset=utf-8').send(body);
}

export const manageErrorHandler = errorHandler(
  (reply, _request, failure) => {
    if (failure.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="wallery-manage"');
    const fieldErrors = failure.body ? [{ field: 'body', message: failure.message }] : failure.fieldErrors;
    return sendManageError(reply, failure.status, failure.message, fieldErrors);
  },
  { conflicts: true },
);
