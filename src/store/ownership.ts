// "Whose is it": the account a resource belongs to, found the same way for
// the audit log (an entry's account) and for the management API's account
// scope (a token limited to accounts reaches only theirs).
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The kinds of resource that belong to an account, named as the audit log's target types. */
export const OWNED_KINDS = [
  'account',
  'user_key',
  'product',
  'wall',
  'feed',
  'post',
  'publishable_key',
  'webhook',
] as const;
export type OwnedKind = (typeof OWNED_KINDS)[number];

export const isOwnedKind = (kind: string): kind is OwnedKind => (OWNED_KINDS as readonly string[]).includes(kind);

/**
 * The account of a resource as it is now (a wall: live or deleted); null when
 * the resource does not exist (or no longer) — also an existence check.
 */
export async function accountOf(db: Kysely<Database>, kind: OwnedKind, id: number): Promise<number | null> {
  let row: { account_id: number } | undefined;
  switch (kind) {
    case 'account':
      row = await db.selectFrom('accounts').select('id as account_id').where('id', '=', id).executeTakeFirst();
      break;
    case 'user_key':
      row = await db.selectFrom('user_keys').select('account_id').where('id', '=', id).executeTakeFirst();
      break;
    case 'product':
      row = await db.selectFrom('products').select('account_id').where('id', '=', id).executeTakeFirst();
      break;
    case 'wall':
      row = await db.selectFrom('walls').select('account_id').where('id', '=', id).executeTakeFirst();
      break;
    case 'webhook':
      row = await db.selectFrom('webhooks').select('account_id').where('id', '=', id).executeTakeFirst();
      break;
    case 'feed':
      row = await db
        .selectFrom('feeds')
        .innerJoin('walls', 'walls.id', 'feeds.wall_id')
        .select('walls.account_id')
        .where('feeds.id', '=', id)
        .executeTakeFirst();
      break;
    case 'post':
      row = await db
        .selectFrom('posts')
        .innerJoin('walls', 'walls.id', 'posts.wall_id')
        .select('walls.account_id')
        .where('posts.id', '=', id)
        .executeTakeFirst();
      break;
    case 'publishable_key':
      row = await db
        .selectFrom('publishable_keys')
        .innerJoin('walls', 'walls.id', 'publishable_keys.wall_id')
        .select('walls.account_id')
        .where('publishable_keys.id', '=', id)
        .executeTakeFirst();
      break;
  }
  return row?.account_id ?? null;
}
