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
  'connection',
] as const;
export type OwnedKind = (typeof OWNED_KINDS)[number];

export const isOwnedKind = (kind: string): kind is OwnedKind => (OWNED_KINDS as readonly string[]).includes(kind);

/** Where the account of each kind (but an account) is found: in its own row, or in its wall's. */
const ACCOUNT_FOUND_IN: Record<
  Exclude<OwnedKind, 'account'>,
  { row: 'user_keys' | 'products' | 'walls' | 'webhooks' | 'connections' } | { wallOf: 'feeds' | 'posts' | 'publishable_keys' }
> = {
  user_key: { row: 'user_keys' },
  product: { row: 'products' },
  wall: { row: 'walls' },
  webhook: { row: 'webhooks' },
  connection: { row: 'connections' },
  feed: { wallOf: 'feeds' },
  post: { wallOf: 'posts' },
  publishable_key: { wallOf: 'publishable_keys' },
};

/**
 * The account of a resource as it is now (a wall: live or deleted); null when
 * the resource does not exist (or no longer) — also an existence check.
 */
export async function accountOf(db: Kysely<Database>, kind: OwnedKind, id: number): Promise<number | null> {
  if (kind === 'account') {
    const account = await db.selectFrom('accounts').select('id').where('id', '=', id).executeTakeFirst();
    return account?.id ?? null;
  }
  const found = ACCOUNT_FOUND_IN[kind];
  const row =
    'row' in found
      ? await db.selectFrom(found.row).select('account_id').where('id', '=', id).executeTakeFirst()
      : await db
          .selectFrom(found.wallOf)
          .innerJoin('walls', 'walls.id', `${found.wallOf}.wall_id`)
          .select('walls.account_id')
          .where(`${found.wallOf}.id`, '=', id)
          .executeTakeFirst();
  return row?.account_id ?? null;
}
