// The walls a public page may name: live (not deleted) ones, by numeric id or
// by URL slug (the wall's `url`).
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface PublicWall {
  id: number;
  name: string;
  slug: string | null;
}

export async function findLiveWallByIdOrSlug(db: Kysely<Database>, idOrSlug: string): Promise<PublicWall | null> {
  if (idOrSlug === '') return null;
  const live = db.selectFrom('walls').select(['id', 'name', 'url']).where('deleted_at', 'is', null);
  // a number is an id first; a slug made of digits is still found by its slug
  const byId = /^[1-9]\d{0,14}$/.test(idOrSlug)
    ? await live.where('id', '=', Number(idOrSlug)).executeTakeFirst()
    : undefined;
  const row = byId ?? (await live.where('url', '=', idOrSlug).orderBy('id').limit(1).executeTakeFirst());
  return row ? { id: row.id, name: row.name, slug: row.url || null } : null;
}
