// An account's connections to networks (src/connections/): the operator's own
// OAuth tokens or API keys for Instagram, X, TikTok, … that feeds read with.
// The secrets are one JSON object sealed with the secret box (`secret`,
// AES-256-GCM): never returned, never logged. What is not secret — the
// network account it signed in as, scopes, expiry and status — is plain so
// the console can show "expires in 5 days" or "revoked by the user".
import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { belongsTo, createIndexes, createTableWithId } from './helpers.js';

export const description = "an account's connections to networks (sealed OAuth tokens / API keys, expiry, status)";

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createTableWithId(db, dialect, 'connections')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // how it was made: oauth (the connect flow), token (pasted), api_key
    .addColumn('auth_kind', 'text', (c) => c.notNull())
    // sealed JSON: { accessToken?, refreshToken?, apiKey?, apiSecret? }
    .addColumn('secret', 'text', (c) => c.notNull())
    // the network account it signed in as (not secret)
    .addColumn('external_account_id', 'text')
    .addColumn('external_account_name', 'text')
    // a federated network's server
    .addColumn('instance', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(''))
    // active | expired | revoked | failing (permission missing, invalid)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('status_detail', 'text')
    .addColumn('status_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('refresh_expires_at', 'bigint')
    .addColumn('refreshed_at', 'bigint')
    // when the `connection.expiring` warning was sent for the current expiry (once per expiry)
    .addColumn('expiry_warned_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'connections', { connections_account: ['account_id', 'id'] });
}
