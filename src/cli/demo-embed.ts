// `npm start`: a publishable key for the demo wall, so the hosted wall page
// works out of the box. A key's plaintext exists only in the answer that made
// it, so the key is made — and its page URL printed — on the first start
// only (when the demo wall has no key yet); later starts say how to make
// another one.
import { createPublishableKey } from '../manage/publishable-keys.js';
import type { Store } from '../store/store.js';

export async function demoEmbedLines(store: Store, base: string, wallId: number): Promise<string[]> {
  const wall = await store.db.selectFrom('walls').select('id').where('id', '=', wallId).executeTakeFirst();
  if (!wall) return [];
  const existing = await store.db
    .selectFrom('publishable_keys')
    .select(['prefix'])
    .where('wall_id', '=', wallId)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
  if (existing) {
    return [
      `The demo wall ${wallId} has a publishable key (${existing.prefix}…), shown once when it was made.`,
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
  return [
    `Publishable key of the demo wall (shown this once): ${made.key}`,
    'The wall, live, on a page of its own:',
    `  ${base}/walls/${wallId}?key=${made.key}`,
    '',
  ];
}
