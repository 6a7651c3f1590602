// The OAuth connect flow (src/connections/oauth-flow.ts) and the token
// refresh job (src/connections/refresh.ts), shared by every instance and
// worker of one store:
// - `oauth_states`: one row per sign-in under way: the SHA-256 of its `state`
//   (never the state itself), the account and network it connects, the PKCE
//   verifier and a per-instance app's client sealed with the secret box, the
//   redirect URI it was sent with, and a short expiry. The callback deletes
//   the row it uses (one use); expired rows are pruned.
// - `connections.refresh_lease_owner/_until`: the worker refreshing a
//   connection's token holds it (a refresh token may be single-use: two
//   workers must not both spend it); `refresh_attempt_at`: the last try, so a
//   network that is down is tried again later, not on every tick.
import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addColumns, belongsTo, createIndexes, createTableWithId } from './helpers.js';

export const description = 'OAuth sign-ins under way (hashed state, sealed PKCE verifier) and the token refresh lease';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createTableWithId(db, dialect, 'oauth_states')
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('network', 'text', (c) => c.notNull())
    // the connection a reconnect replaces the tokens of; null: a new connection
    .addColumn('connection_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    // a federated network's server
    .addColumn('instance', 'text')
    // sealed JSON: { codeVerifier?, clientId?, clientSecret? }
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'oauth_states', { oauth_states_expiry: ['expires_at'] });
  await addColumns(db, 'connections', [
    ['refresh_lease_owner', 'text'],
    ['refresh_lease_until', 'bigint'],
    ['refresh_attempt_at', 'bigint'],
  ]);
  await createIndexes(db, 'connections', { connections_expiry: ['expires_at'] });
}
