// Who started each OAuth sign-in under way (src/connections/oauth-flow.ts):
// the operator token's id and name, kept with the state so the callback —
// a browser coming back without the token — writes the connection's audit
// entry as the operator who pressed Connect. Nullable: a sign-in started
// before this migration finishes with no one named.
import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description = 'OAuth sign-ins under way keep the operator token that started them (for the audit log)';

export async function up(db: Kysely<unknown>): Promise<void> {
  await addColumns(db, 'oauth_states', [
    ['token_id', 'bigint'],
    ['token_name', 'text'],
  ]);
}
