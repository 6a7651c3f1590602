// `npm start`: a publishable key for each demo wall, so their hosted wall
// pages work out of the box. A key's plaintext exists only in the answer that
// made it, so a wall's key is made — and its page URL printed — on the first
// start only (when the wall has no key yet); later starts say how to make
// another one.
import { createPublishableKey } from '../manage/publishable-keys.js';
import type { Store } from '../store/store.js';
import { firstLiveKeyPrefix } from '../store/publishable-keys.js';
import { findWall } from '../store/walls.js';

export interface DemoWall {
  id: number;
  name: string;
}

/**
 * `known`: told the walls and the keys made now (null: made at an earlier
 * start, shown only then), for the start page's links.
 */
export async function demoEmbedLines(
  store: Store,
  base: string,
  walls: readonly DemoWall[],
  known?: (walls: { id: number; name: string; key: string | null }[]) => void,
): Promise<string[]> {
  const made: string[] = [];
  const kept: string[] = [];
  const found: { id: number; name: string; key: string | null }[] = [];
  for (const wall of walls) {
    if (!(await findWall(store.db, wall.id))) continue;
    const prefix = await firstLiveKeyPrefix(store.db, wall.id);
    if (prefix !== undefined) {
      kept.push(`  ${wall.name} (wall ${wall.id}): key ${prefix}…`);
      found.push({ ...wall, key: null });
      continue;
    }
    const key = await createPublishableKey(
      { db: store.db, actor: { tokenId: null, name: 'demo' }, now: Date.now() },
      wall.id,
      { origins: [] },
    );
    made.push(`  ${wall.name}:`, `    ${base}/walls/${wall.id}?key=${key.key}`);
    found.push({ ...wall, key: key.key });
  }
  known?.(found);
  const lines: string[] = [];
  if (made.length > 0) {
    lines.push(
      'The demo walls, live, each on a page of its own (their publishable keys are shown this once):',
      ...made,
      '',
    );
  }
  if (kept.length > 0) {
    lines.push(
      'The demo walls have publishable keys, shown once when they were made:',
      ...kept,
      'For a new one and its page:  npx wallery walls keys create <wall>',
      `  then open ${base}/walls/<wall>?key=<the key>`,
      '',
    );
  }
  return lines;
}
