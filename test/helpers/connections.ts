// A connection (an account's credentials for a network) stored straight into
// a test's store, sealed as the management API seals it.
import type { Kysely } from 'kysely';
import { sealConnectionSecret, type ConnectionSecret } from '../../src/connections/secrets.js';
import { insertConnection } from '../../src/store/connections.js';
import type { Database } from '../../src/store/schema.js';

export interface TestConnection {
  accountId: number;
  network: string;
  secret: ConnectionSecret;
  /** the secret box key (null: stored plain, as without WEBHOOK_SECRET_KEY) */
  key?: Buffer | null;
  name?: string;
  authKind?: 'oauth' | 'token' | 'api_key';
  externalAccountId?: string;
  externalAccountName?: string;
  instance?: string;
  scopes?: string;
  expiresAt?: number | null;
  now?: number;
}

/** Stores the connection; its id (what a feed's `connector.connectionId` names). */
export async function addConnection(db: Kysely<Database>, c: TestConnection): Promise<number> {
  const now = c.now ?? Date.now();
  const row = await insertConnection(db, {
    account_id: c.accountId,
    network: c.network,
    name: c.name ?? `${c.network} connection`,
    auth_kind: c.authKind ?? 'token',
    secret: sealConnectionSecret(c.secret, c.key ?? null),
    external_account_id: c.externalAccountId ?? null,
    external_account_name: c.externalAccountName ?? null,
    instance: c.instance ?? null,
    scopes: c.scopes ?? '',
    expires_at: c.expiresAt ?? null,
    created_at: now,
    updated_at: now,
  });
  return row.id;
}
