// All SQL of the OAuth connect flow and the token refresh job
// (migrations/0033_oauth.ts): sign-ins under way, kept by the hash of their
// state and spent once; the connections whose tokens are due for a refresh,
// leased to one worker at a time.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OAuthStatesTable } from './schema.js';
import { insertRow } from './rows.js';
import type { ConnectionRow } from './connections.js';

export type OAuthStateRow = Selectable<OAuthStatesTable>;

export async function insertOAuthState(db: Kysely<Database>, row: Insertable<OAuthStatesTable>): Promise<number> {
  return insertRow(db, 'oauth_states', row);
}

/**
 * Spends the sign-in whose state hashes to `stateHash`: the row, deleted in
 * the same statement (so two callbacks with one state cannot both have it),
 * or undefined when there is none. An expired row is returned too: the
 * caller tells "expired" from "unknown".
 */
export async function takeOAuthState(db: Kysely<Database>, stateHash: string): Promise<OAuthStateRow | undefined> {
  return db.deleteFrom('oauth_states').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
}

/** Deletes the sign-ins that expired before `now`; how many. */
export async function pruneOAuthStates(db: Kysely<Database>, now: number): Promise<number> {
  const res = await db.deleteFrom('oauth_states').where('expires_at', '<', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * Connections of `networks` made by OAuth whose token expires before
 * `horizon`, still worth a try: not revoked, the refresh token not known
 * to be dead (`refresh_expires_at` past), not tried since `retryAfter`, not
 * held by a live lease. Soonest expiry first.
 */
export async function refreshCandidates(
  db: Kysely<Database>,
  p: { networks: readonly string[]; now: number; horizon: number; retryAfter: number; limit: number },
): Promise<ConnectionRow[]> {
  if (p.networks.length === 0) return [];
  return db
    .selectFrom('connections')
    .selectAll()
    .where('auth_kind', '=', 'oauth')
    .where('network', 'in', [...p.networks])
    .where('status', '!=', 'revoked')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<', p.horizon)
    .where((eb) => eb.or([eb('refresh_expires_at', 'is', null), eb('refresh_expires_at', '>', p.now)]))
    .where((eb) => eb.or([eb('refresh_attempt_at', 'is', null), eb('refresh_attempt_at', '<', p.retryAfter)]))
    .where((eb) => eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<', p.now)]))
    .orderBy('expires_at')
    .limit(p.limit)
    .execute();
}

/** Takes the refresh lease of a connection (free or expired); false when another worker holds it. */
export async function claimConnectionRefresh(
  db: Kysely<Database>,
  id: number,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const res = await db
    .updateTable('connections')
    .set({ refresh_lease_owner: owner, refresh_lease_until: until, refresh_attempt_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Gives the lease back (only the holder's). */
export async function releaseConnectionRefresh(db: Kysely<Database>, id: number, owner: string): Promise<void> {
  await db
    .updateTable('connections')
    .set({ refresh_lease_owner: null, refresh_lease_until: null })
    .where('id', '=', id)
    .where('refresh_lease_owner', '=', owner)
    .execute();
}
