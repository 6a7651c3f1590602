// The embed API's keyset cursor: the sort key (pin, created, id) of the last
// post of a page, as opaque base64url. Posts that arrive while a visitor
// scrolls sort before it, so pages neither repeat nor skip a post.
import type { PostKey } from '../../store/posts.js';
import { cursorKey, encodeCursor } from '../../manage/paging.js';
import { badRequest } from '../errors.js';
import { EMBED_MESSAGES } from './schemas.js';

export function encodeEmbedCursor(k: PostKey): string {
  return encodeCursor([k.pin, k.createdAt, k.id]);
}

/** The key a cursor names; a 400 for anything this API did not make. */
export function decodeEmbedCursor(cursor: string | undefined): PostKey | null {
  if (cursor === undefined) return null;
  const key = cursorKey(cursor, 3);
  if (!key) throw badRequest(EMBED_MESSAGES.cursor);
  const [pin, createdAt, id] = key as [number, number, number];
  return { pin, createdAt, id };
}
