import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addColumns } from './helpers.js';

export const description = 'posts get a revision bumped by a trigger on every update';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // A post's revision: bumped by the store itself on every UPDATE of the
  // row, whoever writes it (an instance, a worker, the CLI, a manual
  // SQL edit). A rendered post fragment (src/http/v2/fragments.ts) is
  // reused only while the revision it was rendered from is current.
  await addColumns(db, 'posts', [['rev', 'bigint', (c) => c.notNull().defaultTo(0)]]);
  for (const statement of postRevisionSql(dialect)) await sql.raw(statement).execute(db);
}

/**
 * The trigger that bumps `posts.rev` on every update. SQLite cannot assign to
 * NEW, so its AFTER trigger writes the row once more (recursive triggers are
 * off, and the WHEN clause stops a second round anyway); a statement that
 * sets `rev` itself is left alone in both dialects.
 */
function postRevisionSql(dialect: DialectName): string[] {
  if (dialect === 'sqlite')
    return [
      `create trigger posts_revision after update on posts for each row when new.rev = old.rev
       begin update posts set rev = old.rev + 1 where id = new.id; end`,
    ];
  return [
    `create function wallery_post_revision() returns trigger language plpgsql as $$
     begin
       if new.rev = old.rev then new.rev := old.rev + 1; end if;
       return new;
     end $$`,
    `create trigger posts_revision before update on posts for each row execute function wallery_post_revision()`,
  ];
}
