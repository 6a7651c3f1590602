// Who may call a management route: each route declares, in one place, the
// least role it needs and how the account it acts on is found —
//
//   app.delete('/walls/:wallId', { config: access('editor', 'wall'), schema: … }, handler)
//
// — and the hooks below enforce it for every route: the role before anything
// is read (403), the account scope once the request is validated (404, the
// very answer a missing record gets). A route without a declaration cannot be
// registered. The declaration is also what the OpenAPI document shows
// (`x-wallery-role`, `x-wallery-scope`, a sentence in the description, 403).
import type { FastifyRequest, RouteOptions } from 'fastify';
import { ManageError, notFound } from '../../domain/errors.js';
import { inScope, ROLES, roleAllows, type AccountScope, type Role } from '../../domain/roles.js';
import { accountOf } from '../../store/ownership.js';
import { optNum } from './common.js';
import { ErrorEnvelope } from './schemas.js';

/**
 * How a route finds the account it acts on, for tokens limited to accounts:
 * - `account`: the `accountId` path parameter;
 * - `wall`: the account of the wall in `wallId` (live or deleted);
 * - `product`: the account of the product in `productId`;
 * - `webhook`: the account of the webhook endpoint in `webhookId`;
 * - `connection`: the account of the connection in `connectionId`;
 * - `body-account`: the `accountId` of the body (a record made for an account);
 * - `filtered`: none — a list or a log; the handler passes `scopeOf(request)`
 *   to the service, which leaves out everything of other accounts;
 * - `unscoped`: the route is not about one account's records (accounts
 *   themselves, operator tokens): only a token without a scope may call it.
 * Anything outside the token's accounts is a 404, as if it did not exist.
 */
export type ScopeBy =
  'account' | 'wall' | 'product' | 'webhook' | 'connection' | 'body-account' | 'filtered' | 'unscoped';

export interface Access {
  /** the least role that may call the route (roles are ordered: viewer < moderator < editor < admin) */
  role: Role;
  scope: ScopeBy;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** who may call a management route (src/http/manage/access.ts) */
    access?: Access;
  }
}

/** A route's access declaration, as its `config`: `{ config: access('moderator', 'wall') }`. */
export const access = (role: Role, scope: ScopeBy) => ({ access: { role, scope } });

const ROLE_NAMES: Record<Role, string> = {
  viewer: 'any role',
  moderator: 'moderator, editor or admin',
  editor: 'editor or admin',
  admin: 'admin',
};

const SCOPE_NOTES: Record<ScopeBy, string> = {
  account: 'A token limited to accounts gets 404 for any other account.',
  wall: 'A token limited to accounts gets 404 for a wall of any other account.',
  product: 'A token limited to accounts gets 404 for a product of any other account.',
  webhook: 'A token limited to accounts gets 404 for a webhook of any other account.',
  connection: 'A token limited to accounts gets 404 for a connection of any other account.',
  'body-account': 'A token limited to accounts gets 404 for any other account (`accountId`).',
  filtered: 'A token limited to accounts sees only theirs.',
  unscoped: 'Needs a token without an account scope (403 otherwise).',
};

/** What the document says of a route's access: a sentence for its description. */
export const accessNote = (a: Access) =>
  `**Role:** ${ROLE_NAMES[a.role]}${a.role === 'viewer' ? '' : ` (403 for ${ROLES.filter((r) => !roleAllows(r, a.role)).join(', ')})`}. ${SCOPE_NOTES[a.scope]}`;

const FORBIDDEN = ErrorEnvelope(403, 'the token’s role, or its account scope, does not allow this call');
const NOT_FOUND = ErrorEnvelope(404, 'a resource the request names does not exist');

/**
 * onRoute hook of the management API: refuses a route without an access
 * declaration, and writes the declaration into the route's OpenAPI entry.
 */
export function declareAccess(route: RouteOptions): void {
  const declared = route.config?.access;
  if (!declared || !ROLES.includes(declared.role) || !(declared.scope in SCOPE_NOTES)) {
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    throw new Error(
      `management route ${methods} ${route.url} declares no access: give it config: access(role, scope) (src/http/manage/access.ts)`,
    );
  }
  const schema = (route.schema ?? {}) as Record<string, unknown> & {
    description?: string;
    response?: Record<string, unknown>;
  };
  const refusable = declared.role !== 'viewer' || declared.scope === 'unscoped';
  const findsAccount = declared.scope !== 'filtered' && declared.scope !== 'unscoped';
  const described: Record<string, unknown> = {
    ...schema,
    description: schema.description ? `${schema.description}\n\n${accessNote(declared)}` : accessNote(declared),
    'x-wallery-role': declared.role,
    'x-wallery-scope': declared.scope,
    response: {
      ...schema.response,
      ...(refusable ? { 403: FORBIDDEN } : {}),
      ...(findsAccount && !schema.response?.['404'] ? { 404: NOT_FOUND } : {}),
    },
  };
  route.schema = described;
}

/** The access declaration of the route a request matched. */
function accessOf(request: FastifyRequest): Access {
  const declared = request.routeOptions.config.access;
  // declareAccess made every route declare one; a request without is a bug, refused
  if (!declared) throw new ManageError(403, 'this route declares no access');
  return declared;
}

/** What a refused call is, in words: the route's summary, starting lower case. */
function whatOf(request: FastifyRequest): string {
  const summary = (request.routeOptions.schema as { summary?: string } | undefined)?.summary;
  if (!summary) return `call ${request.method} ${request.routeOptions.url ?? ''}`;
  return summary.charAt(0).toLowerCase() + summary.slice(1);
}

/**
 * onRequest hook, after authentication: the token's role must be the
 * route's or above; a route for unscoped tokens refuses scoped ones. Needs
 * nothing of the request, so it answers before the body is read.
 */
export async function authorizeRole(request: FastifyRequest): Promise<void> {
  const operator = request.operator;
  if (!operator) return;
  const declared = accessOf(request);
  if (!roleAllows(operator.role, declared.role))
    throw new ManageError(
      403,
      `this token's role (${operator.role}) cannot ${whatOf(request)}: that needs ${ROLE_NAMES[declared.role]}`,
    );
  if (declared.scope === 'unscoped' && operator.accounts !== null)
    throw new ManageError(
      403,
      `this token is limited to accounts and cannot ${whatOf(request)}: that needs a token without an account scope`,
    );
}

/**
 * preHandler hook (params and body are valid by now): a token limited to
 * accounts reaches only their records; any other is a 404 with the words a
 * missing one gets from the services.
 */
export async function enforceScope(request: FastifyRequest): Promise<void> {
  const scope = request.operator?.accounts ?? null;
  if (scope === null) return;
  const declared = accessOf(request);
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const db = request.server.ctx.store.db;
  switch (declared.scope) {
    case 'account': {
      const id = Number(params.accountId);
      if (!inScope(scope, id)) throw notFound('account', id);
      return;
    }
    case 'body-account': {
      const id = (request.body as { accountId?: unknown } | undefined)?.accountId;
      if (typeof id === 'number' && !inScope(scope, id)) throw notFound('account', id);
      return;
    }
    case 'wall':
    case 'product':
    case 'webhook':
    case 'connection': {
      // the record in the path parameter named after its kind (wallId, productId, webhookId, connectionId)
      const kind = declared.scope;
      const id = Number(params[`${kind}Id`]);
      const owner = await accountOf(db, kind, id);
      if (owner === null || !inScope(scope, owner)) throw notFound(kind, id);
      return;
    }
    case 'filtered':
    case 'unscoped':
      return;
  }
}

/** The accounts the request's token is limited to (null: every account), for the services' lists. */
export const scopeOf = (request: FastifyRequest): AccountScope => request.operator?.accounts ?? null;

/** Whose records a list shows: the account its `accountId` asks for, within the token's accounts. */
export const accountFilterOf = (request: FastifyRequest<{ Querystring: { accountId?: string } }>) => ({
  accountId: optNum(request.query.accountId),
  scope: scopeOf(request),
});
