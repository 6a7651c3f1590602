// The demo data set's pictures (demo/media: JPEG photographs and SVG
// initials, served at the server's own /demo-media/ URLs, which the SSRF
// guard refuses) go through the media pipeline from their files: after
// `wallery start`'s seeding, every picture of the demo is Wallery's own
// stored copy, with its dimensions and placeholder; nothing is left for the
// worker to fetch. The three walls are in the store, each with its posts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, DEMO_WALLS, demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { seedDemoMedia } from '../../src/media/demo-seed.js';
import { MediaPool } from '../../src/media/media-pool.js';
import { mediaKey } from '../../src/media/names.js';
import { createMediaStorage } from '../../src/media/storage.js';
import type { MediaStorage } from '../../src/media/types.js';
import { importDataFile } from '../../src/store/datafile.js';
import { dueSources } from '../../src/store/media-queue.js';
import { picturesOfPosts } from '../../src/store/media.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

let dir: string;
let ts: TestStore;
let pool: MediaPool;
let storage: MediaStorage;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-demo-media-'));
  ts = await openTestStore(dir);
  pool = new MediaPool({ threads: 1 });
  storage = createMediaStorage({ kind: 'folder', dir: join(dir, 'media') });
});
afterAll(async () => {
  await pool.close();
  await storage.close();
  await ts.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo’s pictures', () => {
  it('are stored from their files and ready, each file once; nothing is left to fetch', async () => {
    const now = Date.UTC(2026, 0, 15);
    const base = demoMediaBase('http://localhost:3000');
    const db = ts.store.db;
    await importDataFile(ts.store, demoDataFile(now, base), now);
    expect((await dueSources(db, now, 1000)).length).toBeGreaterThan(10);

    const seeded = await seedDemoMedia({ db, services: { storage, processor: pool }, base, now });
    expect(seeded.skipped).toBe(0);
    expect(seeded.stored).toBeGreaterThan(10);
    expect(await dueSources(db, now + 1e9, 1000)).toEqual([]);

    const states = await db.selectFrom('post_media').select('state').distinct().execute();
    expect(states).toEqual([{ state: 'ready' }]);
    const posts = await db.selectFrom('posts').select(['id', 'media_state']).execute();
    // every demo post shows an avatar at least
    expect(new Set(posts.map((p) => p.media_state))).toEqual(new Set(['ready']));

    // the shop's first studio shot (800 × 1000), with its placeholder, its files in the storage
    const withPicture = { id: DEMO_KEYS[0].taggedPostId };
    const item = (await picturesOfPosts(db, [withPicture.id])).get(withPicture.id)!.get('item:0')!;
    expect(item.stored).toMatchObject({ width: 800, height: 1000, animated: false });
    expect(item.stored!.placeholder).not.toBe('');
    const blob = await db
      .selectFrom('media_blobs')
      .select('master')
      .where('hash', '=', item.stored!.hash)
      .executeTakeFirstOrThrow();
    expect(await storage.has(mediaKey(item.stored!.hash, blob.master))).toBe(true);
    // one stored picture per distinct file
    const blobs = await db.selectFrom('media_blobs').select('hash').execute();
    expect(blobs).toHaveLength(seeded.stored);

    // the three walls, their posts, their looks
    const walls = await db.selectFrom('walls').select(['id', 'name']).orderBy('id').execute();
    expect(walls.map((w) => w.id)).toEqual(DEMO_WALLS.map((w) => w.id));
    const perWall = await db
      .selectFrom('posts')
      .select(['wall_id', db.fn.countAll<number>().as('n')])
      .groupBy('wall_id')
      .orderBy('wall_id')
      .execute();
    expect(perWall.map((r) => [r.wall_id, Number(r.n)])).toEqual(
      demoDataFile(now, base).walls!.map((w) => [w.id, w.feeds!.flatMap((f) => f.posts ?? []).length]),
    );
  });
});
