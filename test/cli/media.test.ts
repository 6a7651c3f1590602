// `wallery media status | retry | gc | fetch --once`, `wallery import
// --skip-media`, and the pictures in `wallery backup` / `wallery restore`, as
// an operator runs them: the built CLI against a real store (SQLite, or
// PostgreSQL in the postgres project) and a media folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mediaKey } from '../../src/media/names.js';
import { createMediaStorage } from '../../src/media/storage.js';
import type { MediaStorage } from '../../src/media/types.js';
import {
  claimSource,
  completePictures,
  failPictures,
  settlePictures,
  syncPostMedia,
  type BlobRecord,
} from '../../src/store/media-queue.js';
import { importDataFile } from '../../src/store/datafile.js';
import { postDefaults } from '../../src/store/post-columns.js';
import { openStore, type Store } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';
import { startFixture, type Fixture } from '../ingest/fixtures/server.js';
import { pngWithAlpha } from '../media/pictures.js';

const kind = testStoreKind();
const NOW = Date.now();
const T = '2026-01-01T00:00:00.000Z';
const A = 'https://cdn.example/a.jpg';
const B = 'https://cdn.example/b.jpg';
const C = 'https://cdn.example/c.jpg';
const H1 = '1'.repeat(64);
const H2 = '2'.repeat(64);

let dir: string;
let n = 0;
const databases: string[] = [];
const open: { store: Store; media: MediaStorage }[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-cli-media-'));
});
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.store.close();
    await o.media.close();
  }
});
afterAll(async () => {
  for (const name of databases) await dropTestDatabase(name);
  rmSync(dir, { recursive: true, force: true });
});

/** A new store with two walls (wall 10 of account 1, wall 20 of account 2), its media folder, and their env. */
async function fresh() {
  const name = `s${n++}`;
  let database: string;
  if (kind === 'sqlite') database = join(dir, `${name}.db`);
  else {
    const db = await createTestDatabase();
    databases.push(db.name);
    database = db.url;
  }
  const store = openStore(kind === 'sqlite' ? { kind: 'sqlite', path: database } : { kind: 'postgres', url: database });
  await store.migrate();
  await importDataFile(
    store,
    {
      version: 1,
      accounts: [
        { id: 1, name: 'One', plan: 'enterprise' },
        { id: 2, name: 'Two', plan: 'enterprise' },
      ],
      walls: [
        { id: 10, accountId: 1, name: 'W10', url: 'w10', createdAt: T, feeds: [feed(100)] },
        { id: 20, accountId: 2, name: 'W20', url: 'w20', createdAt: T, feeds: [feed(200)] },
      ],
    },
    NOW,
  );
  const mediaDir = join(dir, `${name}-media`);
  const media = createMediaStorage({ kind: 'folder', dir: mediaDir });
  open.push({ store, media });
  const env = { DATABASE_URL: database, MEDIA_DIR: mediaDir, LOG_LEVEL: 'warn' };
  const post = async (wallId: 10 | 20, picture: string) => {
    const row = await store.db
      .insertInto('posts')
      .values({
        ...postDefaults(),
        wall_id: wallId,
        feed_id: wallId * 10,
        media: 'image',
        picture,
        created_at: NOW,
        updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await syncPostMedia(store.db, [row.id], NOW);
    return row.id;
  };
  /** Stores `url`'s pictures as `hash`, with two files in the media folder. */
  const stored = async (url: string, hash: string) => {
    const claimed = await claimSource(store.db, url, 'test', NOW, NOW + 60_000);
    await media.put(mediaKey(hash, 'master.jpg'), Buffer.alloc(3000, 1), 'image/jpeg');
    await media.put(mediaKey(hash, '320.webp'), Buffer.alloc(1000, 2), 'image/webp');
    await completePictures(
      store.db,
      claimed.map((c) => c.id),
      'test',
      blob(hash),
      NOW,
    );
  };
  return { store, media, mediaDir, database, env, post, stored };
}

function feed(id: number) {
  return { id, name: `Feed ${id}`, source: 'RSS', sourceType: 'feed', posts: [] };
}

const blob = (hash: string): BlobRecord => ({
  hash,
  type: 'jpeg',
  width: 640,
  height: 480,
  animated: false,
  hasAlpha: false,
  placeholder: 'AAAA',
  widths: [320],
  master: 'master.jpg',
  bytes: 4000,
});

const cli = (args: string[], env: Record<string, string>) => runCli(args, env);

describe('wallery media status and retry', () => {
  it('counts per state, the stored bytes, the latest failures with their reasons; retry puts failed ones back', async () => {
    const s = await fresh();
    const p1 = await s.post(10, A);
    await s.post(10, B);
    const p3 = await s.post(20, C);
    await s.stored(A, H1);
    const b = await claimSource(s.store.db, B, 'test', NOW, NOW + 60_000);
    await failPictures(s.store.db, b, 'test', 'HTTP 404 from cdn.example', NOW, () => null);
    const c = await claimSource(s.store.db, C, 'test', NOW, NOW + 60_000);
    await settlePictures(
      s.store.db,
      c.map((x) => x.id),
      'test',
      { state: 'refused', reason: 'the file is HTML, not a picture' },
      NOW,
    );

    const all = await cli(['media', 'status'], s.env);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(`media: on, stored in the folder ${s.mediaDir}`);
    expect(all.stdout).toContain('pictures: 0 pending (0 due now), 1 ready, 1 failed, 1 refused, 0 skipped');
    expect(all.stdout).toContain('stored: 1 picture, 3.9 kB');
    expect(all.stdout).toMatch(/latest failures/);
    expect(all.stdout).toContain('HTTP 404 from cdn.example');
    expect(all.stdout).toContain('the file is HTML, not a picture');
    expect(all.stdout).toContain(B);

    const wall = await cli(['media', 'status', '--wall', '20', '--json'], s.env);
    expect(wall.code, wall.stderr).toBe(0);
    expect(JSON.parse(wall.stdout)).toMatchObject({
      enabled: true,
      pictures: { pending: 0, ready: 0, failed: 0, refused: 1, skipped: 0 },
      blobs: 0,
      bytes: 0,
      failures: [{ postId: p3, wallId: 20, state: 'refused', reason: 'the file is HTML, not a picture' }],
    });
    expect((await cli(['media', 'status', '--wall', '99'], s.env)).stderr).toContain('no wall 99');

    const none = await cli(['media', 'retry', '--wall', '20'], s.env);
    expect(none.stdout).toBe('0 failed pictures put back in the queue (wall 20)\n');
    const retried = await cli(['media', 'retry'], s.env);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toBe('1 failed picture put back in the queue\n');
    const after = await cli(['media', 'status', '--json'], s.env);
    expect(JSON.parse(after.stdout)).toMatchObject({ pictures: { pending: 1, failed: 0, ready: 1 }, due: 1 });
    expect(p1).toBeGreaterThan(0);
  });
});

describe('wallery media gc', () => {
  it('removes only the stored pictures no post shows, files and all; --dry-run removes nothing', async () => {
    const s = await fresh();
    const keep = await s.post(10, A);
    const gone = await s.post(20, B);
    await s.stored(A, H1);
    await s.stored(B, H2);
    expect(keep).toBeGreaterThan(0);
    const nothing = await cli(['media', 'gc'], s.env);
    expect(nothing.stdout).toBe('nothing to remove: every stored picture is shown by a post\n');

    // the post of B purged (its pictures go with it)
    await s.store.db.deleteFrom('posts').where('id', '=', gone).execute();
    const dry = await cli(['media', 'gc', '--dry-run'], s.env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      `would remove 1 stored picture no post shows (dry run: nothing removed): 2 files, 3.9 kB in the folder ${s.mediaDir}\n`,
    );
    expect(await s.media.has(mediaKey(H2, 'master.jpg'))).toBe(true);

    const run = await cli(['media', 'gc'], s.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      `removed 1 stored picture no post showed: 2 files, 3.9 kB freed in the folder ${s.mediaDir}\n`,
    );
    expect(await s.media.has(mediaKey(H2, 'master.jpg'))).toBe(false);
    expect(await s.media.has(mediaKey(H2, '320.webp'))).toBe(false);
    expect(existsSync(join(s.mediaDir, H2.slice(0, 2)))).toBe(false);
    expect(await s.media.has(mediaKey(H1, 'master.jpg'))).toBe(true);
    expect((await s.store.db.selectFrom('media_blobs').select('hash').execute()).map((r) => r.hash)).toEqual([H1]);
  });
});

describe('wallery media fetch --once', () => {
  let upstream: Fixture;
  afterEach(async () => {
    await upstream?.close();
  });

  it('fetches what is due, says how each went, exits 1 when one failed', async () => {
    const s = await fresh();
    const png = await pngWithAlpha(120, 80);
    upstream = await startFixture((_req, url) =>
      url.pathname === '/ok.png'
        ? { status: 200, headers: { 'content-type': 'image/png' }, body: png }
        : { status: 500, body: 'broken' },
    );
    const ok = await s.post(10, `${upstream.origin}/ok.png`);
    await s.post(10, `${upstream.origin}/broken.png`);
    const env = { ...s.env, INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8' };
    const r = await cli(['media', 'fetch', '--once'], env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('fetching 2 pictures');
    expect(r.stdout).toContain(`${upstream.origin}/ok.png: stored (1 picture)`);
    expect(r.stderr).toContain(`${upstream.origin}/broken.png: FAILED, will be retried — HTTP 500`);
    expect(r.stdout).toContain('fetched 2: 1 stored, 0 refused, 1 failed, 0 left for later');
    const [row] = await s.store.db
      .selectFrom('post_media')
      .select(['state', 'hash'])
      .where('post_id', '=', ok)
      .execute();
    expect(row!.state).toBe('ready');
    expect(await s.media.has(mediaKey(row!.hash!, '120.webp'))).toBe(true);

    const again = await cli(['media', 'fetch', '--once'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('no picture is due\n');
    expect((await cli(['media', 'fetch'], env)).stderr).toContain('media fetch needs --once');
    expect((await cli(['media', 'fetch', '--once'], { ...env, MEDIA: 'off' })).stderr).toContain('MEDIA is off');
  });
});

describe('wallery import --skip-media', () => {
  it("queues the posts' pictures, or with --skip-media skips them", async () => {
    const s = await fresh();
    const file = (id: number) => {
      const path = join(dir, `import-${id}.json`);
      writeFileSync(
        path,
        JSON.stringify({
          version: 1,
          accounts: [{ id, name: `A${id}`, plan: 'enterprise' }],
          walls: [
            {
              id,
              accountId: id,
              name: `W${id}`,
              url: `w${id}`,
              createdAt: T,
              feeds: [{ ...feed(id * 10), posts: [{ id: id * 100, createdAt: T, picture: A, userPicture: B }] }],
            },
          ],
        }),
      );
      return path;
    };
    expect((await cli(['import', file(3)], s.env)).code).toBe(0);
    expect((await cli(['import', file(4), '--skip-media'], s.env)).code).toBe(0);
    const states = async (postId: number) =>
      (
        await s.store.db
          .selectFrom('post_media')
          .select('state')
          .where('post_id', '=', postId)
          .orderBy('slot')
          .execute()
      ).map((r) => r.state);
    expect(await states(300)).toEqual(['pending', 'pending']);
    expect(await states(400)).toEqual(['skipped', 'skipped']);
  });
});

const ci = process.env.CI === 'true' || process.env.CI === '1';
const hasPgDump =
  kind === 'sqlite' ||
  ci ||
  spawnSync(process.env.PG_BIN_DIR ? join(process.env.PG_BIN_DIR, 'pg_dump') : 'pg_dump', ['--version']).status === 0;

describe.skipIf(!hasPgDump)('the pictures in a backup', () => {
  it('backup copies the media folder beside the file (only new files the next time); restore puts them back', async () => {
    const s = await fresh();
    await s.post(10, A);
    await s.stored(A, H1);
    const file = join(dir, kind === 'sqlite' ? 'media-backup.db' : 'media-backup.dump');

    const backup = await cli(['backup', file], s.env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`media: 2 files (3.9 kB) copied into ${file}.media, 0 there already`);
    expect(existsSync(join(`${file}.media`, H1.slice(0, 2), H1, 'master.jpg'))).toBe(true);
    const again = await cli(['backup', file], s.env);
    expect(again.stdout).toContain(`media: 0 files (0.0 kB) copied into ${file}.media, 2 there already`);
    const without = await cli(['backup', join(dir, `no-media-${kind}`), '--no-media'], s.env);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).not.toContain('media:');

    // the store and the media folder lost: restored into a fresh store and an empty folder
    const t = await fresh();
    await t.store.close();
    open.splice(
      open.findIndex((o) => o.store === t.store),
      1,
    );
    rmSync(t.mediaDir, { recursive: true, force: true });
    const restore = await cli(['restore', file, '--force'], t.env);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`media: 2 files (3.9 kB) restored into the folder ${t.mediaDir}, 0 there already`);
    const restored = openStore(
      kind === 'sqlite' ? { kind: 'sqlite', path: t.database } : { kind: 'postgres', url: t.database },
    );
    open.push({ store: restored, media: t.media });
    const rows = await restored.db.selectFrom('post_media').select(['state', 'hash']).execute();
    expect(rows).toEqual([{ state: 'ready', hash: H1 }]);
    const master = await t.media.get(mediaKey(H1, 'master.jpg'));
    expect(master?.bytes.equals(Buffer.alloc(3000, 1))).toBe(true);
    expect(await t.media.has(mediaKey(H1, '320.webp'))).toBe(true);
  });
});
