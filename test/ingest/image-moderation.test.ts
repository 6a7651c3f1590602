// Issue 32's image rule on real ingestion, SQLite and PostgreSQL: an RSS
// feed on a local server whose items carry photos (made with sharp here)
// is polled into a wall with an image rule; the real media pipeline (the
// media worker threads, a folder storage) fetches and stores each photo and
// the real image check (nsfwjs in its worker thread) classifies it, then
// decides the posts that waited for it. With the default image rule no
// ordinary photo is held and each photo's scores are stored with the model;
// with a rule on `neutral` and `drawing` at a low threshold, exactly the
// pictured posts are held, each saying why; a moderator's approval clears
// one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { IMAGE_CHECK_BY, IMAGE_CLASSES, IMAGE_MODEL } from '../../src/domain/image-rules.js';
import { FolderStorage } from '../../src/media/folder-storage.js';
import { MediaPool } from '../../src/media/media-pool.js';
import { MediaRuntime } from '../../src/media/runtime.js';
import { call } from '../helpers/http.js';
import { makeToken } from '../http/manage/helpers.js';
import { testMediaConfig } from '../media/queue-harness.js';
import { startFixture, type Fixture, type Reply } from './fixtures/server.js';
import { NOW, WALL, startHarness, type Harness } from './harness.js';

let h: Harness;
let fx: Fixture;
let media: MediaRuntime;
let processor: MediaPool;
let dir: string;
afterEach(async () => {
  await media?.stop();
  await processor?.close();
  await h?.close();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A photo-like JPEG: a sky, a horizon, a noisy ground (not flagged by the default rule: image-check-pool.test.ts). */
async function photo(sky: string, ground: string): Promise<Buffer> {
  const top = await sharp({ create: { width: 480, height: 160, channels: 3, background: sky } })
    .png()
    .toBuffer();
  return sharp({
    create: {
      width: 480,
      height: 320,
      channels: 3,
      background: ground,
      noise: { type: 'gaussian', mean: 90, sigma: 25 },
    },
  })
    .composite([{ input: top, top: 0, left: 0 }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

interface Item {
  guid: string;
  title: string;
  /** the path of its photo on the fixture, if it has one */
  photo?: string;
}

interface Post {
  id: number;
  externalId: string;
  state: string;
  decision: { by: string; reason: string | null; detail: Record<string, unknown> | null } | null;
}

async function wall(rules: unknown[]) {
  const items: Item[] = [];
  const photos = new Map<string, Buffer>();
  fx = await startFixture((_req, url): Reply => {
    const jpeg = photos.get(url.pathname);
    if (jpeg) return { status: 200, headers: { 'content-type': 'image/jpeg' }, body: jpeg };
    const xml = items
      .map(
        (it, i) =>
          `<item><title>${it.title}</title><link>${fx.origin}/post/${it.guid}</link><guid>${it.guid}</guid>` +
          `<pubDate>${new Date(NOW - (items.length - i) * 60_000).toUTCString()}</pubDate>` +
          (it.photo ? `<enclosure url="${fx.origin}${it.photo}" type="image/jpeg"/>` : '') +
          '</item>',
      )
      .reverse()
      .join('');
    return {
      status: 200,
      headers: { 'content-type': 'application/rss+xml' },
      body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Photos</title>${xml}</channel></rss>`,
    };
  });
  h = await startHarness([{ id: 621, name: 'Photos', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }], {
    rules,
  });
  dir = mkdtempSync(join(tmpdir(), 'wallery-image-moderation-'));
  processor = new MediaPool({ threads: 1 });
  // the real pipeline: fetching over HTTP, the media worker threads, a folder storage, the image check's own pool
  media = new MediaRuntime({
    db: h.server.store.db,
    changes: h.changes,
    config: testMediaConfig(),
    services: { storage: new FolderStorage(join(dir, 'media')), processor },
    allowPrivateNetworks: ['127.0.0.0/8'],
    now: () => h.clock.now,
    owner: 'test-media',
  });
  const { token } = await makeToken(h.server, 'moderator-mo');
  const manage = (method: string, path: string, body?: unknown) =>
    call(h.server.baseUrl, `/api/manage/v1${path}`, { method, body, headers: { authorization: `Bearer ${token}` } });
  const posts = async () => {
    const res = await manage('GET', `/walls/${WALL}/posts?limit=100&state=all`);
    expect(res.status, res.text).toBe(200);
    return new Map(
      (res.json() as { responseData: { data: Post[] } }).responseData.data.map((p) => [p.externalId, p] as const),
    );
  };
  /** Publishes items (with their photos), polls the feed and runs the media worker and the image check until done. */
  const arrive = async (more: (Item & { jpeg?: Buffer })[]) => {
    for (const it of more) {
      if (it.photo && it.jpeg) photos.set(it.photo, it.jpeg);
      items.push(it);
    }
    expect((await h.poll(621))[0]).toMatchObject({ status: 'ok', inserted: more.length });
    // the pictured posts wait for the check, the text-only one does not
    const waiting = await posts();
    for (const it of more)
      expect(waiting.get(it.guid)!.decision?.by ?? null, it.guid).toBe(it.photo ? IMAGE_CHECK_BY : null);
    await media.runOnce();
  };
  return { manage, posts, arrive };
}

const batch = async (tag: string) => [
  {
    guid: `${tag}-harbour`,
    title: 'The harbour at dusk',
    photo: `/${tag}/harbour.jpg`,
    jpeg: await photo('#f2a65a', '#2b3a55'),
  },
  {
    guid: `${tag}-meadow`,
    title: 'A meadow in June',
    photo: `/${tag}/meadow.jpg`,
    jpeg: await photo('#8ec5ff', '#3f7d20'),
  },
  { guid: `${tag}-dunes`, title: 'Dunes at noon', photo: `/${tag}/dunes.jpg`, jpeg: await photo('#cfe8ff', '#c2a060') },
  { guid: `${tag}-text`, title: 'No picture in this one' },
];

describe('the image rule on real ingestion: photos fetched, stored, classified, posts decided', () => {
  it('default rule: no ordinary photo held, scores stored with the model; a rule on neutral/drawing holds exactly the pictured posts; an approval clears one', async () => {
    const { manage, posts, arrive } = await wall([{ id: 'nsfw', kind: 'image', action: 'hold' }]);
    await arrive(await batch('a'));
    const first = await posts();
    expect(first.size).toBe(4);
    for (const p of first.values()) expect(p, p.externalId).toMatchObject({ state: 'approved', decision: null });
    // each photo's scores, every class, stored with the model's name
    const checks = await h.server.store.db.selectFrom('picture_checks').selectAll().execute();
    expect(checks).toHaveLength(3);
    for (const c of checks) {
      expect(c).toMatchObject({ model: IMAGE_MODEL, error: null });
      expect(Object.keys(JSON.parse(c.scores!) as object).sort()).toEqual([...IMAGE_CLASSES].sort());
      expect(c.phash).toMatch(/^[0-9a-f]{16}$/);
    }

    // a rule that any photo meets: neutral or drawing at 0.2 (the five classes sum to 1, the three others stay low)
    const put = await manage('PUT', `/walls/${WALL}/rules`, {
      rules: [{ id: 'calm', kind: 'image', action: 'hold', classes: ['neutral', 'drawing'], threshold: 0.2 }],
    });
    expect(put.status, put.text).toBe(200);
    await arrive(await batch('b'));
    const second = await posts();
    const held = [...second.values()].filter((p) => p.decision?.by === 'rule:calm').map((p) => p.externalId);
    expect(held.sort()).toEqual(['b-dunes', 'b-harbour', 'b-meadow']);
    expect(second.get('b-text')).toMatchObject({ state: 'approved', decision: null });
    for (const guid of held) {
      const p = second.get(guid)!;
      expect(p.state).toBe('pending');
      const detail = p.decision!.detail as { label: string; score: number; threshold: number; model: string };
      expect(detail).toMatchObject({ rule: 'calm', kind: 'image', threshold: 0.2, model: IMAGE_MODEL });
      expect(['neutral', 'drawing']).toContain(detail.label);
      expect(detail.score).toBeGreaterThanOrEqual(0.2);
      expect(p.decision!.reason).toBe(
        `held: image ${detail.score.toFixed(2)} '${detail.label}' ≥ 0.20 — ${IMAGE_MODEL}`,
      );
    }
    // the first batch was decided before the rule: unchanged
    for (const guid of ['a-harbour', 'a-meadow', 'a-dunes']) expect(second.get(guid)!.state).toBe('approved');

    // a moderator approves one: it is cleared, the rule's detail replaced by the person's decision
    const meadow = second.get('b-meadow')!;
    const ok = await manage('PATCH', `/walls/${WALL}/posts/${meadow.id}`, { state: 'approved', reason: 'just grass' });
    expect(ok.status, ok.text).toBe(200);
    const after = await posts();
    expect(after.get('b-meadow')).toMatchObject({
      state: 'approved',
      decision: { by: 'moderator-mo', reason: 'just grass', detail: null },
    });
    expect(after.get('b-harbour')!.decision?.by).toBe('rule:calm');
  });
});
