// Issue 29, end to end: a local upstream serves an RSS feed whose items
// carry a phone JPEG with EXIF orientation and GPS tags, a PNG with alpha,
// an animated GIF, an SVG, a "JPEG" that is really HTML and a hand-made
// 20,000 × 20,000 PNG header bomb (and the feed's icon, every post's
// avatar). A runtime built as `wallery serve` builds it from the
// configuration (openRuntime: the store, ctx.media, ingestion, the media
// worker with its pool of threads) polls the feed and fetches the pictures;
// then the real pictures are ready with their dimensions, their stored
// files carry no EXIF or GPS, the fake, the SVG and the bomb are refused
// with a reason, and with the upstream stopped the stored files are still
// there. Once with the folder storage (MEDIA_DIR), once with S3 against a
// local s3rver (MEDIA_S3_*); on SQLite and on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { jsonLogger } from '../../src/jobs/log.js';
import { openMediaStorage } from '../../src/media/services.js';
import type { MediaStorage } from '../../src/media/types.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { importDataFile } from '../../src/store/datafile.js';
import { picturesOfPosts, type PostPicture } from '../../src/store/media.js';
import { dataFile } from '../ingest/harness.js';
import { rssXml, type RssItem } from '../ingest/fixtures/feeds.js';
import { startFixture, type Fixture, type Reply } from '../ingest/fixtures/server.js';
import { openTestStore, type TestStore } from '../helpers/store.js';
import { animatedGif, GPS_MARK, orientedJpegWithGps, pngBomb, pngWithAlpha } from './pictures.js';

const BUCKET = 'wallery-media';
const SECRET = 'S3RVER';
const FEED = 201;

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="#0a0"/></svg>';

/** path → the upstream's answer, and the item that shows it */
async function upstreamFiles(): Promise<Map<string, Reply>> {
  const file = (body: Buffer | string, type: string): Reply => ({
    status: 200,
    headers: { 'content-type': type },
    body,
  });
  return new Map([
    ['/p/phone.jpg', file(await orientedJpegWithGps(640, 480), 'image/jpeg')],
    ['/p/alpha.png', file(await pngWithAlpha(200, 150), 'image/png')],
    ['/p/loop.gif', file(await animatedGif(60, 40, 3), 'image/gif')],
    ['/p/logo.svg', file(SVG, 'image/svg+xml')],
    [
      '/p/fake.jpg',
      file('<!DOCTYPE html><html><head><title>Login</title></head><body>Sign in</body></html>', 'image/jpeg'),
    ],
    ['/p/bomb.png', file(pngBomb(20_000, 20_000), 'image/png')],
    ['/wp-content/uploads/icon.png', file(await pngWithAlpha(64, 64), 'image/png')],
  ]);
}

const ITEMS: { guid: string; path: string; type: string }[] = [
  { guid: 'phone', path: '/p/phone.jpg', type: 'image/jpeg' },
  { guid: 'alpha', path: '/p/alpha.png', type: 'image/png' },
  { guid: 'loop', path: '/p/loop.gif', type: 'image/gif' },
  { guid: 'logo', path: '/p/logo.svg', type: 'image/svg+xml' },
  { guid: 'fake', path: '/p/fake.jpg', type: 'image/jpeg' },
  { guid: 'bomb', path: '/p/bomb.png', type: 'image/png' },
];

function feedXml(origin: string): string {
  const now = Date.now();
  const items: RssItem[] = ITEMS.map((item, i) => ({
    guid: item.guid,
    title: `Picture ${item.guid}`,
    link: `${origin}/posts/${item.guid}`,
    pubDate: new Date(now - (i + 1) * 60_000).toUTCString(),
    description: `A post with a picture: ${item.guid}`,
    mediaContent: [{ url: `${origin}${item.path}`, medium: 'image', type: item.type }],
  }));
  // the channel's image (the feed's icon) is every post's avatar: fetched once
  return rssXml(items, { title: 'Picture feed', link: `${origin}/` });
}

interface Outcome {
  /** each item's picture (by guid), and its avatar */
  pictures: Map<string, { item: PostPicture; avatar: PostPicture | undefined }>;
  storage: MediaStorage;
  requests: Map<string, number>;
  logs: string[];
}

describe.each(['folder', 's3'] as const)('the media pipeline, end to end (%s storage)', (kind) => {
  let dir: string;
  let ts: TestStore;
  let upstream: Fixture;
  let s3: S3rver | null = null;
  let runtime: Runtime | null = null;
  let outcome: Outcome;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `wallery-pipeline-${kind}-`));
    ts = await openTestStore(dir);
    const files = await upstreamFiles();
    upstream = await startFixture((_req, url) =>
      url.pathname === '/feed.xml'
        ? { status: 200, headers: { 'content-type': 'application/rss+xml' }, body: feedXml(upstream.origin) }
        : (files.get(url.pathname) ?? { status: 404, body: 'not found' }),
    );
    await importDataFile(
      ts.store,
      dataFile([{ id: FEED, name: 'Pictures', connector: { kind: 'rss', url: `${upstream.origin}/feed.xml` } }]),
      Date.now(),
    );

    let storageEnv: Record<string, string> = { MEDIA_DIR: join(dir, 'media') };
    if (kind === 's3') {
      s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory: join(dir, 's3rver'),
        configureBuckets: [{ name: BUCKET }],
      });
      const { port } = await s3.run();
      storageEnv = {
        MEDIA_S3_BUCKET: BUCKET,
        MEDIA_S3_ENDPOINT: `http://127.0.0.1:${port}`,
        MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
        MEDIA_S3_SECRET_ACCESS_KEY: SECRET,
        MEDIA_S3_FORCE_PATH_STYLE: 'on',
        MEDIA_S3_PREFIX: 'walls/media',
      };
    }
    const config = loadConfig({
      DATABASE_URL: ts.database,
      LOG_LEVEL: 'info',
      // the upstream listens on loopback: allowed for feeds, and so for their pictures
      INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
      ...storageEnv,
    });
    const logs: string[] = [];
    runtime = await openRuntime(config, {
      ingest: true,
      media: true,
      ingestLog: jsonLogger('info', (l) => logs.push(l)),
    });
    expect(runtime.ctx.media).toBeTruthy();
    expect(runtime.ctx.media!.storage.kind).toBe(kind);

    const polled = await runtime.ingest!.runOnce();
    expect(polled).toMatchObject([{ feedId: FEED, status: 'ok', inserted: ITEMS.length }]);
    await runtime.media!.runOnce();
    // a second run finds nothing due: refusals are never retried, ready pictures never fetched again
    expect(await runtime.media!.runOnce()).toEqual([]);
    await runtime.close();
    runtime = null;

    // the upstream is gone: what is stored must not need it
    await upstream.close();
    const requests = new Map<string, number>();
    for (const r of upstream.requests) requests.set(r.url, (requests.get(r.url) ?? 0) + 1);

    const posts = await ts.store.db
      .selectFrom('posts')
      .select(['id', 'external_id'])
      .where('feed_id', '=', FEED)
      .execute();
    const seen = await picturesOfPosts(
      ts.store.db,
      posts.map((p) => p.id),
    );
    const pictures = new Map<string, { item: PostPicture; avatar: PostPicture | undefined }>();
    for (const p of posts) {
      const slots = seen.get(p.id)!;
      pictures.set(p.external_id!, { item: slots.get('item:0')!, avatar: slots.get('avatar') });
    }
    outcome = { pictures, storage: openMediaStorage(config), requests, logs };
  });

  afterAll(async () => {
    await runtime?.close();
    await outcome?.storage.close();
    await s3?.close();
    await ts?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const stored = (guid: string) => {
    const p = outcome.pictures.get(guid)!.item;
    expect(p.state, `${guid}: ${p.reason}`).toBe('ready');
    return p.stored!;
  };

  /** Every file of a stored picture, read back from the storage. */
  async function filesOf(hash: string): Promise<{ key: string; bytes: Buffer }[]> {
    const out: { key: string; bytes: Buffer }[] = [];
    for await (const { key } of outcome.storage.list(`${hash.slice(0, 2)}/${hash}/`)) {
      const got = await outcome.storage.get(key);
      expect(got, key).not.toBeNull();
      out.push({ key, bytes: got!.bytes });
    }
    return out.sort((a, b) => a.key.localeCompare(b.key));
  }

  it('the real pictures are ready, with their dimensions (the phone photo upright), alpha and animation', () => {
    expect(stored('phone')).toMatchObject({ width: 480, height: 640, animated: false });
    expect(stored('alpha')).toMatchObject({ width: 200, height: 150, hasAlpha: true, animated: false });
    expect(stored('loop')).toMatchObject({ width: 60, height: 40, animated: true });
    for (const guid of ['phone', 'alpha', 'loop']) {
      expect(stored(guid).placeholder).not.toBe('');
      expect(stored(guid).widths.length).toBeGreaterThan(0);
    }
  });

  it('the avatar every post shows was fetched once, and is ready on every post', () => {
    const avatars = [...outcome.pictures.values()].map((p) => p.avatar!);
    expect(avatars).toHaveLength(ITEMS.length);
    expect(new Set(avatars.map((a) => a.state))).toEqual(new Set(['ready']));
    expect(new Set(avatars.map((a) => a.stored!.hash)).size).toBe(1);
    expect(outcome.requests.get('/wp-content/uploads/icon.png')).toBe(1);
    for (const item of ITEMS) expect(outcome.requests.get(item.path), item.path).toBe(1);
  });

  it('the fake, the SVG and the bomb are refused, each with its reason', () => {
    const refused = (guid: string) => {
      const p = outcome.pictures.get(guid)!.item;
      expect(p.state).toBe('refused');
      expect(p.stored).toBeNull();
      return p.reason!;
    };
    expect(refused('fake')).toMatch(/HTML/);
    expect(refused('logo')).toMatch(/SVG/);
    expect(refused('bomb')).toMatch(/20000 × 20000/);
  });

  it('the stored files carry no EXIF and no GPS, and are still there with the upstream stopped', async () => {
    for (const guid of ['phone', 'alpha', 'loop']) {
      const files = await filesOf(stored(guid).hash);
      // the master and a rendition per width
      expect(files.length, guid).toBe(1 + stored(guid).widths.length);
      for (const f of files) {
        const meta = await sharp(f.bytes, { animated: true }).metadata();
        expect(meta.exif, f.key).toBeUndefined();
        expect(f.bytes.includes(GPS_MARK), f.key).toBe(false);
        expect(f.bytes.includes('Wallery Test Camera'), f.key).toBe(false);
      }
    }
    // the phone photo's files are upright: 480 wide, not 640
    const phone = await filesOf(stored('phone').hash);
    const master = phone.find((f) => /\/master\.[a-z]+$/.test(f.key))!;
    expect(await sharp(master.bytes).metadata()).toMatchObject({ width: 480, height: 640 });
  });

  it('one log line per refusal; the S3 secret in none', () => {
    const lines = outcome.logs.map((l) => JSON.parse(l) as { msg: string });
    expect(lines.filter((l) => l.msg === 'picture refused')).toHaveLength(3);
    // s3rver takes its own fixed credentials (S3RVER / S3RVER): neither shows in any line
    for (const l of outcome.logs) expect(l).not.toContain(SECRET);
  });
});
