// The embed API's wall lookup (its post reads are in posts.ts, products.ts and tags.ts).
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { WallRow } from './walls.js';

export async function findLiveWallById(db: Kysely<Database>, wallId: number): Promise<WallRow | null> {
  const row = await db
    .selectFrom('walls')
    .selectAll()
    .where('id', '=', wallId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}
