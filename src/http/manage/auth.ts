// Operator authentication of the management API: `Authorization: Bearer
// <token>` with a token made by `wallery tokens create`. Runs in onRequest,
// before the body is read. User keys are never accepted here.
import type { FastifyRequest } from 'fastify';
import { ManageError } from '../../domain/errors.js';
import { type Op } from '../../manage/op.js';
import { findOperator, type Operator } from '../../manage/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the authenticated operator, set by the management auth hook */
    operator: Operator | null;
  }
}

export const UNAUTHORIZED =
  'a valid operator token is required: Authorization: Bearer <token> (make one with `wallery tokens create`; user keys are not accepted)';

const BEARER = /^Bearer +([\x21-\x7E]{1,512}) *$/i;

export async function authenticateOperator(request: FastifyRequest) {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  const { store, now } = request.server.ctx;
  const operator = match ? await findOperator(store.db, match[1]!, now()) : null;
  if (!operator) throw new ManageError(401, UNAUTHORIZED);
  request.operator = operator;
}

/** The operation context of a management request: the store, the operator, the clock, the change bus. */
export function opOf(request: FastifyRequest): Op {
  const { store, now, changes } = request.server.ctx;
  const operator = request.operator;
  if (!operator) throw new ManageError(401, UNAUTHORIZED);
  return { db: store.db, actor: { tokenId: operator.id, name: operator.name }, now: now(), changes };
}
