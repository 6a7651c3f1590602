// The embed API's keyset cursor: the sort key (pin, created, id) of the last
// post of a page, as opaque base64url. Posts that arrive while a visitor
// scrolls sort before it, so pages neither repeat nor skip a post.
import type { PostKey } from '../../store/posts.js';
import { badRequest } from '../errors.js';
import { EMBED_MESSAGES } from './schemas.js';

export function encodeEmbedCursor(k: PostKey): string {
  return Buffer.from(JSON.stringify([k.pin, k.createdAt, k.id]), 'utf8').toString('base64url');
}

/** The key a cursor names; a 400 for anything this API did not make. */
export function decodeEmbedCursor(cursor: string | undefined): PostKey | null {
  if (cursor === undefined) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  if (!Array.isArray(key) || key.length !== 3 || !key.every((n) => Number.isSafeInteger(n)))
    throw badRequest(EMBED_MESSAGES.cursor);
  const [pin, createdAt, id] = key as [number, number, number];
  return { pin, createdAt, id };
}
