import { sql, type Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  'operator tokens get a role and account scope (existing: admin of every account); audit entries their account';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An operator token's role (admin, editor, moderator, viewer) and its
  // account scope (JSON list of account ids; null = every account).
  // The tokens made before are admins of every account, as they were.
  await addColumns(db, 'operator_tokens', [
    ['role', 'text', (c) => c.notNull().defaultTo('admin')],
    ['account_ids', 'text'],
  ]);
  // The account an audit entry belongs to, so a token scoped to accounts
  // sees only theirs; null = no account (operator tokens) or not known.
  await addColumns(db, 'audit_log', [['account_id', 'bigint']]);
  await db.schema.createIndex('audit_log_account').on('audit_log').columns(['account_id', 'id']).execute();
  // The entries written before: their account, found from their target
  // where it still exists (an entry whose target is gone stays null, seen
  // by unscoped tokens only).
  const owners: [string, string][] = [
    ['account', 'select a.id from accounts a where a.id = audit_log.target_id'],
    ['user_key', 'select k.account_id from user_keys k where k.id = audit_log.target_id'],
    ['wall', 'select w.account_id from walls w where w.id = audit_log.target_id'],
    ['feed', 'select w.account_id from feeds f join walls w on w.id = f.wall_id where f.id = audit_log.target_id'],
    ['post', 'select w.account_id from posts p join walls w on w.id = p.wall_id where p.id = audit_log.target_id'],
    ['product', 'select p.account_id from products p where p.id = audit_log.target_id'],
    [
      'publishable_key',
      'select w.account_id from publishable_keys k join walls w on w.id = k.wall_id where k.id = audit_log.target_id',
    ],
  ];
  for (const [type, owner] of owners) {
    await sql
      .raw(`update audit_log set account_id = (${owner}) where target_type = '${type}' and account_id is null`)
      .execute(db);
  }
}
