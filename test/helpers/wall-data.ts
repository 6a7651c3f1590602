// A small store on a SQLite file: one account with a key, one wall with one
// feed of a few posts, loaded through the real `wallery import`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli.js';

export const SMALL_WALL = { account: 1, wall: 1, feed: 1, key: 'Small-wall-key-0001' } as const;

/** A data file (contract §8) with posts 1..`posts` on the wall's one feed. */
export function smallWallData(posts: number) {
  return {
    version: 1,
    accounts: [
      {
        id: SMALL_WALL.account,
        name: 'Small',
        plan: 'enterprise',
        dailyCallLimit: 10_000_000,
        userKeys: [SMALL_WALL.key],
      },
    ],
    walls: [
      {
        id: SMALL_WALL.wall,
        accountId: SMALL_WALL.account,
        name: 'Small wall',
        url: 'small-wall',
        createdAt: '2025-01-01T00:00:00.000Z',
        feeds: [
          {
            id: SMALL_WALL.feed,
            name: 'Feed',
            source: 'RSS',
            sourceType: 'feed',
            updatedAt: '2025-01-01T00:00:00.000Z',
            posts: Array.from({ length: posts }, (_, i) => ({
              id: i + 1,
              content: `post ${i + 1}`,
              createdAt: new Date(Date.UTC(2025, 0, 2) + i * 60_000).toISOString(),
              media: 'text',
            })),
          },
        ],
      },
    ],
  };
}

/** Imports `smallWallData(posts)` into `dir/wallery.db` with the CLI; returns the database path. */
export async function importSmallWall(dir: string, posts: number): Promise<string> {
  const file = join(dir, 'small-wall.json');
  writeFileSync(file, JSON.stringify(smallWallData(posts)));
  const db = join(dir, 'wallery.db');
  const imported = await runCli(['import', file, '--database', db]);
  expect(imported.code, imported.stderr).toBe(0);
  return db;
}
