// The walls a public page may name: live (not deleted) ones, by numeric id or
// by URL slug (the wall's `url`).
import type { EmbedLayout } from '../domain/lists.js';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface PublicWall {
  id: number;
  name: string;
  slug: string | null;
  /** the embed's layout when a page does not choose one; null: the page's own default */
  layout: EmbedLayout | null;
}

export async function findLiveWallByIdOrSlug(db: Kysely<Database>, idOrSlug: string): Promise<PublicWall | null> {
  if (idOrSlug === '') return null;
  const live = db.selectFrom('walls').select(['id', 'name', 'url', 'layout']).where('deleted_at', 'is', null);
  // a number is an id first; a slug made of digits is still found by its slug
  const byId = /^[1-9]\d{0,14}$/.test(idOrSlug)
    ? await live.where('id', '=', Number(idOrSlug)).executeTakeFirst()
    : undefined;
  const row = byId ?? (await live.where('url', '=', idOrSlug).orderBy('id').limit(1).executeTakeFirst());
  return row ? { id: row.id, name: row.name, slug: row.url || null, layout: row.layout } : null;
}
