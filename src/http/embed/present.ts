// Posts as the embed API gives them (its lists and its stream alike): their
// products and their pictures' copies read in one batch each.
import type { Kysely } from 'kysely';
import { embedPost, type EmbedPost } from '../../presenters/embed.js';
import { picturesOfPosts } from '../../store/media.js';
import type { PostRow } from '../../store/posts.js';
import { productsOfPosts } from '../../store/products.js';
import type { Database } from '../../store/schema.js';
import type { WallRow } from '../../store/walls.js';

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
