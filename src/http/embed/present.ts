// Posts as the embed API gives them (its lists and its stream alike): their
// products and their pictures' copies read in one batch each.
import type { Kysely } from 'kysely';
import { embedPost, type EmbedPost } from '../../presenters/embed.js';
import { picturesOfPosts } from '../../store/media.js';
import { listVisiblePostsAfter, type PostKey, type PostRow } from '../../store/posts.js';
import { productsOfPosts } from '../../store/products.js';
import type { Database } from '../../store/schema.js';
import type { WallRow } from '../../store/walls.js';
import { encodeEmbedCursor } from './cursor.js';

/** `base`: of Wallery's own URLs (the copies), src/http/self-url.ts. */
export async function presentPosts(db: Kysely<Database>, rows: readonly PostRow[], base: string): Promise<EmbedPost[]> {
  const ids = rows.map((r) => r.id);
  const products = await productsOfPosts(db, ids);
  const pictures = await picturesOfPosts(db, ids);
  return rows.map((r) => embedPost(r, products.get(r.id) ?? [], { base, pictures: pictures.get(r.id) }));
}

/**
 * What the embed leaves out of a wall's visible posts: those still waiting
 * for their pictures, when the wall waits — and only while this instance has
 * a media pipeline (`mediaOn`): with MEDIA=off nothing ever fetches them, and
 * the posts show with their original pictures.
 */
export const embedFilterOf = (wall: Pick<WallRow, 'media_wait'>, mediaOn: boolean) => ({
  waitForMedia: mediaOn && wall.media_wait !== 0,
});

/**
 * A page of a wall's visible posts as the embed API lists them (the posts
 * route, and the hosted page's first load): `limit` posts after `after`
 * (null: from the top) and the cursor of the next page, null at the end.
 */
export async function embedPostsPage(
  db: Kysely<Database>,
  wall: Pick<WallRow, 'id' | 'media_wait'>,
  options: { limit: number; after: PostKey | null; mediaOn: boolean; base: string },
): Promise<{ posts: EmbedPost[]; nextCursor: string | null }> {
  const { limit } = options;
  const rows = await listVisiblePostsAfter(db, wall.id, limit + 1, options.after, embedFilterOf(wall, options.mediaOn));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    posts: await presentPosts(db, page, options.base),
    nextCursor:
      rows.length > limit && last
        ? encodeEmbedCursor({ pin: last.pin, createdAt: last.created_at, id: last.id })
        : null,
  };
}
