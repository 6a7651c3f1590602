// `npm start`: a publishable key for the demo wall, so the hosted wall page
// works out of the box. A key's plaintext exists only in the answer that made
// it, so the key is made — and its page URL printed — on the first start
// only (when the demo wall has no key yet); later starts say how to make
// another one.
import { createPublishableKey } from '../manage/publishable-keys.js';
import type { Store } from '../store/store.js';
import { firstLiveKeyPrefix } from '../store/publishable-keys.js';
import { findWall } from '../store/walls.js';

/** `known`: told the wall and its key (null when it was made at an earlier start), for the start page's links. */
export async function demoEmbedLines(
  store: Store,
  base: string,
  wallId: number,
  known?: (wall: { id: number; name: string; key: string | null }) => void,
): Promise<string[]> {
  const wall = await findWall(store.db, wallId);
  if (!wall) return [];
  const prefix = await firstLiveKeyPrefix(store.db, wallId);
  if (prefix !== undefined) {
    known?.({ id: wallId, name: wall.name, key: null });
    return [
      `The demo wall ${wallId} has a publishable key (${prefix}…), shown once when it was made.`,
      `For a new one and its page:  npx wallery walls keys create ${wallId}`,
      `  then open ${base}/walls/${wallId}?key=<the key>`,
      '',
    ];
  }
  const made = await createPublishableKey(
    { db: store.db, actor: { tokenId: null, name: 'demo' }, now: Date.now() },
    wallId,
    { origins: [] },
  );
  known?.({ id: wallId, name: wall.name, key: made.key });
  return [
    `Publishable key of the demo wall (shown this once): ${made.key}`,
    'The wall, live, on a page of its own:',
    `  ${base}/walls/${wallId}?key=${made.key}`,
    '',
  ];
}
