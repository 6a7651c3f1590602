// An account's connections to networks, for operators (the management API and
// the CLI): store one with its token or API key (sealed at once: the secret
// is never answered, logged or audited — only its last 4 characters), read,
// rename, reconnect (a new secret: active again), delete (refused while feeds
// read with it); store what an OAuth sign-in gave, audited as the operator
// who started it. And the rule a feed's `connector.connectionId` must follow.
import type { Kysely } from 'kysely';
import { connectionStatusText, secretHint, type AuthKind, type ConnectionStatus } from '../domain/connections.js';
import { conflict, found, invalid, invalidField, notFound, stored, type FieldError } from '../domain/errors.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { cleanWrite } from '../domain/writes.js';
import type { ConnectionCreateBody, ConnectionPatchBody, ConnectionRecord } from '../schemas/connections.js';
import { NETWORK_OF_KIND } from '../schemas/connections.js';
import {
  connectionsPage,
  deleteConnection as deleteConnectionRow,
  feedsByConnection,
  findConnection,
  insertConnection,
  updateConnection as updateConnectionRow,
  type ConnectionRow,
} from '../store/connections.js';
import { accountOf } from '../store/ownership.js';
import type { Database } from '../store/schema.js';
import { NO_SECRET_KEY } from '../connections/secret-key.js';
import { openConnectionSecret, sealConnectionSecret, type ConnectionSecret } from '../connections/secrets.js';
import { audited, diff, type Op } from './op.js';
import { pageById, type Page, type PageRequest } from './paging.js';

/** What reading and writing connections needs: the key their secrets are sealed with (null: none). */
export interface ConnectionKeyring {
  secretKey: Buffer | null;
}

const TEXT_RULES = { name: 'name', externalAccountId: 'name', externalAccountName: 'name' } as const;

/** The last characters of the token or key, when the stored secret can be opened; null otherwise. */
function hintOf(row: ConnectionRow, key: Buffer | null): string | null {
  try {
    const secret = openConnectionSecret(row.secret, key);
    return secretHint(secret.accessToken ?? secret.apiKey);
  } catch {
    return null;
  }
}

function connectionRecord(row: ConnectionRow, usedBy: number[], key: Buffer | null, now: number): ConnectionRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    network: row.network,
    name: row.name,
    authKind: row.auth_kind as AuthKind,
    instance: row.instance,
    externalAccountId: row.external_account_id,
    externalAccountName: row.external_account_name,
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    status: row.status as ConnectionStatus,
    statusDetail: row.status_detail,
    statusAt: isoOrNull(row.status_at),
    statusText: connectionStatusText(
      { status: row.status, statusDetail: row.status_detail, statusAt: row.status_at, expiresAt: row.expires_at },
      now,
    ),
    expiresAt: isoOrNull(row.expires_at),
    refreshExpiresAt: isoOrNull(row.refresh_expires_at),
    refreshedAt: isoOrNull(row.refreshed_at),
    lastUsedAt: isoOrNull(row.last_used_at),
    tokenHint: hintOf(row, key),
    usedBy,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

async function connectionRow(db: Kysely<Database>, id: number): Promise<ConnectionRow> {
  return found(await findConnection(db, id), 'connection', id);
}

async function recordOf(db: Kysely<Database>, row: ConnectionRow, key: Buffer | null, now: number) {
  const used = await feedsByConnection(db, row.account_id);
  return connectionRecord(row, used.get(row.id) ?? [], key, now);
}

export async function listConnections(
  db: Kysely<Database>,
  accountId: number,
  page: PageRequest,
  keyring: ConnectionKeyring,
  now: number,
): Promise<Page<ConnectionRecord>> {
  if ((await accountOf(db, 'account', accountId)) === null) throw notFound('account', accountId);
  const used = await feedsByConnection(db, accountId);
  return pageById(
    page,
    (afterId, take) => connectionsPage(db, accountId, afterId, take),
    (row) => connectionRecord(row, used.get(row.id) ?? [], keyring.secretKey, now),
  );
}

export async function getConnection(
  db: Kysely<Database>,
  id: number,
  keyring: ConnectionKeyring,
  now: number,
): Promise<ConnectionRecord> {
  return recordOf(db, await connectionRow(db, id), keyring.secretKey, now);
}

/** The secret fields a body gives (none: undefined). */
function secretOf(body: ConnectionSecret): ConnectionSecret | undefined {
  const secret: ConnectionSecret = {};
  for (const k of ['accessToken', 'refreshToken', 'apiKey', 'apiSecret'] as const)
    if (body[k] !== undefined) secret[k] = body[k];
  return Object.keys(secret).length > 0 ? secret : undefined;
}

/** What each way of connecting must hold: a token, or an API key. */
function secretProblems(authKind: string, secret: ConnectionSecret): FieldError[] {
  if (authKind === 'api_key' && secret.apiKey === undefined)
    return [{ field: 'apiKey', message: 'apiKey is required for an api_key connection' }];
  if (authKind !== 'api_key' && secret.accessToken === undefined)
    return [
      {
        field: 'accessToken',
        message: `accessToken is required for a${authKind === 'oauth' ? 'n oauth' : ' token'} connection`,
      },
    ];
  return [];
}

const epochOf = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : Date.parse(value);

function requireKey(keyring: ConnectionKeyring): Buffer {
  if (!keyring.secretKey) throw conflict(NO_SECRET_KEY);
  return keyring.secretKey;
}

/** What a network's connection must name besides its secret: a Bluesky app password signs in with the handle. */
function networkProblems(body: ConnectionCreateBody): FieldError[] {
  if (body.network === 'bluesky' && (body.externalAccountName ?? '') === '')
    return [
      {
        field: 'externalAccountName',
        message: 'externalAccountName is required for a bluesky connection: the handle the app password signs in with',
      },
    ];
  return [];
}

export async function createConnection(
  op: Op,
  accountId: number,
  given: ConnectionCreateBody,
  keyring: ConnectionKeyring,
): Promise<ConnectionRecord> {
  const body = stored(cleanWrite(given, TEXT_RULES));
  const secret = secretOf(body) ?? {};
  const problems = [...secretProblems(body.authKind, secret), ...networkProblems(body)];
  if (problems.length > 0) throw invalid(problems);
  const key = requireKey(keyring);
  return audited(op, async (tx) => {
    if ((await accountOf(tx.trx, 'account', accountId)) === null) throw notFound('account', accountId);
    const row = await insertConnection(tx.trx, {
      account_id: accountId,
      network: body.network,
      name: body.name,
      auth_kind: body.authKind,
      secret: sealConnectionSecret(secret, key),
      external_account_id: body.externalAccountId ?? null,
      external_account_name: body.externalAccountName ?? null,
      instance: body.instance ?? null,
      scopes: (body.scopes ?? []).join(' '),
      status: 'active',
      status_at: op.now,
      expires_at: epochOf(body.expiresAt) ?? null,
      created_at: op.now,
      updated_at: op.now,
    });
    const rec = connectionRecord(row, [], key, op.now);
    // the record holds no secret (only its last 4 characters): what the audit log keeps
    tx.audit({ action: 'connection.create', targetType: 'connection', targetId: row.id, accountId, after: rec });
    return rec;
  });
}

/** Renames, changes what is not secret, or — any secret field given — reconnects: the secret replaced, active again. */
export async function updateConnection(
  op: Op,
  id: number,
  given: ConnectionPatchBody,
  keyring: ConnectionKeyring,
): Promise<ConnectionRecord> {
  const change = stored(cleanWrite(given, TEXT_RULES));
  const secret = secretOf(change);
  const expiresAt = epochOf(change.expiresAt);
  const key = secret === undefined ? keyring.secretKey : requireKey(keyring);
  return audited(op, async (tx) => {
    const beforeRow = await connectionRow(tx.trx, id);
    if (secret !== undefined) {
      const problems = secretProblems(beforeRow.auth_kind, secret);
      if (problems.length > 0) throw invalid(problems);
    }
    const before = await recordOf(tx.trx, beforeRow, key, op.now);
    await updateConnectionRow(tx.trx, id, {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.instance !== undefined ? { instance: change.instance } : {}),
      ...(change.externalAccountId !== undefined ? { external_account_id: change.externalAccountId } : {}),
      ...(change.externalAccountName !== undefined ? { external_account_name: change.externalAccountName } : {}),
      // a new expiry is warned of afresh
      ...(expiresAt !== undefined ? { expires_at: expiresAt, expiry_warned_at: null } : {}),
      ...(secret !== undefined
        ? {
            secret: sealConnectionSecret(secret, key),
            status: 'active',
            status_detail: null,
            status_at: op.now,
            expiry_warned_at: null,
          }
        : {}),
      updated_at: op.now,
    });
    const after = await recordOf(tx.trx, await connectionRow(tx.trx, id), key, op.now);
    const changed = diff(before, after);
    for (const k of ['updatedAt', 'statusText'] as const) {
      delete changed.before[k];
      delete changed.after[k];
    }
    tx.audit({
      action: 'connection.update',
      targetType: 'connection',
      targetId: id,
      accountId: after.accountId,
      ...changed,
      ...(secret !== undefined ? { details: { reconnected: true } } : {}),
    });
    return after;
  });
}

// ---------- connections made by an OAuth sign-in ----------

/** What a sign-in was started for: the account, network and name of a new connection, or the connection it reconnects. */
export interface SignInStart {
  accountId: number;
  network: string;
  /** the name of a new connection */
  name: string;
  /** a federated network's server */
  instance: string | null;
  /** the connection whose tokens the sign-in replaces; null (or gone since): a new connection */
  connectionId: number | null;
}

/** What a sign-in gives a connection: its secret (sealed by the caller), who signed in, the grant. */
export interface SignedIn {
  sealedSecret: string;
  externalAccountId: string;
  externalAccountName: string;
  /** space-separated */
  scopes: string;
  expiresAt: number | null;
  refreshExpiresAt: number | null;
}

/**
 * The audit entry's view of a signed-in connection: its record without
 * `tokenHint` — the sign-in's tokens went from the network to the sealed
 * secret and were never in anyone's hands, so no part of them is logged —
 * nor what changes by itself (`updatedAt`, `statusText`).
 */
function signInView(rec: ConnectionRecord): Omit<ConnectionRecord, 'tokenHint' | 'updatedAt' | 'statusText'> {
  const { tokenHint: _hint, updatedAt: _updated, statusText: _text, ...view } = rec;
  return view;
}

/**
 * Stores what an OAuth sign-in gave (the connect callback,
 * src/connections/oauth-flow.ts), audited as the operator who started it
 * (`op.actor`, kept with the sign-in's state): a new connection
 * (`connection.create`), or the tokens of the one being reconnected
 * replaced, active again (`connection.update`, `reconnected`) — as the
 * management API audits the same writes, with `via: oauth`.
 */
export async function saveSignedInConnection(
  op: Op,
  start: SignInStart,
  signedIn: SignedIn,
  keyring: ConnectionKeyring,
): Promise<{ connectionId: number; reconnected: boolean }> {
  const key = requireKey(keyring);
  const fields = {
    secret: signedIn.sealedSecret,
    external_account_id: signedIn.externalAccountId,
    external_account_name: signedIn.externalAccountName,
    scopes: signedIn.scopes,
    status: 'active',
    status_detail: null,
    status_at: op.now,
    expires_at: signedIn.expiresAt,
    refresh_expires_at: signedIn.refreshExpiresAt,
    refreshed_at: op.now,
    expiry_warned_at: null,
    updated_at: op.now,
  };
  return audited(op, async (tx) => {
    const existing = start.connectionId === null ? undefined : await findConnection(tx.trx, start.connectionId);
    if (existing) {
      const before = signInView(await recordOf(tx.trx, existing, key, op.now));
      await updateConnectionRow(tx.trx, existing.id, fields);
      const after = signInView(await recordOf(tx.trx, await connectionRow(tx.trx, existing.id), key, op.now));
      tx.audit({
        action: 'connection.update',
        targetType: 'connection',
        targetId: existing.id,
        accountId: existing.account_id,
        ...diff(before, after),
        details: { reconnected: true, via: 'oauth' },
      });
      return { connectionId: existing.id, reconnected: true };
    }
    const row = await insertConnection(tx.trx, {
      ...fields,
      account_id: start.accountId,
      network: start.network,
      name: start.name,
      auth_kind: 'oauth',
      instance: start.instance,
      created_at: op.now,
    });
    tx.audit({
      action: 'connection.create',
      targetType: 'connection',
      targetId: row.id,
      accountId: start.accountId,
      after: signInView(connectionRecord(row, [], key, op.now)),
      details: { via: 'oauth' },
    });
    return { connectionId: row.id, reconnected: false };
  });
}

/** Deletes a connection no feed reads with (409 naming the feeds otherwise). */
export async function deleteConnection(op: Op, id: number, keyring: ConnectionKeyring): Promise<ConnectionRecord> {
  return audited(op, async (tx) => {
    const before = await recordOf(tx.trx, await connectionRow(tx.trx, id), keyring.secretKey, op.now);
    if (before.usedBy.length > 0)
      throw conflict(
        `connection ${id} is used by feed${before.usedBy.length === 1 ? '' : 's'} ${before.usedBy.join(', ')}: ` +
          'give them another connection (or delete them) first',
      );
    await deleteConnectionRow(tx.trx, id);
    tx.audit({
      action: 'connection.delete',
      targetType: 'connection',
      targetId: id,
      accountId: before.accountId,
      before,
    });
    return before;
  });
}

// ---------- feeds ↔ connections ----------

/** `a` or `an` as the word is said (an RSS feed, an X connection). */
const article = (word: string) => (/^(?:[aeiou]|rss$|x$)/i.test(word) ? 'an' : 'a');

/**
 * The rule of a feed's `connector.connectionId`, checked whenever a feed is
 * made or its connector changed: a kind whose schema names a network
 * (`'x-network'`) reads with a connection of the wall's account for that
 * network; any other kind takes none. A 400 naming `connector` otherwise.
 */
export async function checkFeedConnection(db: Kysely<Database>, wallId: number, connector: unknown): Promise<void> {
  if (connector === null || typeof connector !== 'object') return;
  const { kind, connectionId } = connector as { kind?: unknown; connectionId?: unknown };
  if (connectionId === undefined) return;
  const network = NETWORK_OF_KIND.get(String(kind));
  if (network === undefined)
    throw invalidField(
      'connector',
      `connector.connectionId: ${article(String(kind))} ${String(kind)} feed reads without a connection; remove it`,
    );
  const id = Number(connectionId);
  const row = Number.isSafeInteger(id) ? await findConnection(db, id) : undefined;
  const accountId = await accountOf(db, 'wall', wallId);
  if (!row || row.account_id !== accountId)
    throw invalidField(
      'connector',
      `connector.connectionId: connection ${String(connectionId)} does not exist in the wall's account`,
    );
  if (row.network !== network)
    throw invalidField(
      'connector',
      `connector.connectionId: connection ${id} (“${row.name}”) is ${article(row.network)} ${row.network} connection; ` +
        `${article(String(kind))} ${String(kind)} feed needs ${article(network)} ${network} one`,
    );
}
