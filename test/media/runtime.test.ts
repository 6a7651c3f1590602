// The media worker (src/media/runtime.ts) on a real store (SQLite, and
// PostgreSQL in the postgres project) against a local upstream over real
// HTTP: pictures made ready and stored under their hash, one fetch for every
// post showing a picture, retries with backoff on an injected clock (no
// sleeps), giving up, refusals, the account quota, the backfill of earlier
// posts, a host that asks to wait, and a stop that gives the leases back.
import { afterEach, describe, expect, it } from 'vitest';
import { mediaKey } from '../../src/media/names.js';
import { jsonLogger } from '../../src/jobs/log.js';
import { syncPostMedia } from '../../src/store/media-queue.js';
import { picturesOfPosts } from '../../src/store/media.js';
import { photoJpeg, pngWithAlpha } from './pictures.js';
import { MemoryStorage, NOW, picture, startQueueHarness, testMediaConfig, type QueueHarness } from './queue-harness.js';

let h: QueueHarness;
afterEach(async () => {
  await h?.close();
});

const image = (url: string, avatar = '') => ({ media: 'image' as const, picture: url, user_picture: avatar });

async function rows(postId: number) {
  return h.store.db
    .selectFrom('post_media')
    .select(['slot', 'state', 'hash', 'attempts', 'reason', 'next_attempt_at', 'lease_owner'])
    .where('post_id', '=', postId)
    .orderBy('slot')
    .execute();
}

const mediaState = async (postId: number) =>
  (await h.store.db.selectFrom('posts').select('media_state').where('id', '=', postId).executeTakeFirstOrThrow())
    .media_state;

const requestsTo = (path: string) => h.upstream.requests.filter((r) => r.url === path).length;

describe('a picture fetched, processed and stored', () => {
  it('ready with its dimensions; its files under its hash; one fetch for every post showing it', async () => {
    h = await startQueueHarness();
    h.replies.set('/a.png', picture(await pngWithAlpha(300, 200)));
    const p1 = await h.post(10, image(h.url('/a.png')));
    const p2 = await h.post(20, image(h.url('/a.png')));
    await syncPostMedia(h.store.db, [p1, p2], NOW);

    const reports = await h.runtime.runOnce();
    expect(reports).toMatchObject([{ url: h.url('/a.png'), status: 'ready', pictures: 2, message: null }]);
    expect(requestsTo('/a.png')).toBe(1);
    const hash = reports[0]!.hash!;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);

    const seen = await picturesOfPosts(h.store.db, [p1, p2]);
    for (const id of [p1, p2]) {
      expect(seen.get(id)!.get('item:0')).toMatchObject({
        state: 'ready',
        reason: null,
        stored: { hash, width: 300, height: 200, hasAlpha: true, animated: false },
      });
      expect(await mediaState(id)).toBe('ready');
    }
    const storage = h.services.storage as MemoryStorage;
    const blob = await h.store.db.selectFrom('media_blobs').selectAll().executeTakeFirstOrThrow();
    expect(await storage.has(mediaKey(hash, blob.master))).toBe(true);
    const widths = JSON.parse(blob.widths) as number[];
    expect(widths.length).toBeGreaterThan(0);
    for (const w of widths) expect(await storage.has(mediaKey(hash, `${w}.webp`))).toBe(true);
    expect(Number(blob.bytes)).toBe([...storage.files.values()].reduce((n, f) => n + f.size, 0));
    expect(h.runtime.stats.fetches.ready).toBe(1);
    expect(h.runtime.stats.picturesReady).toBe(2);
    expect(h.runtime.stats.bytesWritten).toBe(Number(blob.bytes));
    // the readers of both walls are told
    expect(new Set(h.changed)).toEqual(new Set([10, 20]));

    // nothing is due any more: another run fetches nothing
    expect(await h.runtime.runOnce()).toEqual([]);
    expect(requestsTo('/a.png')).toBe(1);
  });

  it('the same bytes at another URL: fetched, but its files are not written again', async () => {
    h = await startQueueHarness();
    const png = await pngWithAlpha(64, 48);
    h.replies.set('/one.png', picture(png));
    h.replies.set('/two.png', picture(png));
    const p1 = await h.post(10, image(h.url('/one.png')));
    await syncPostMedia(h.store.db, [p1], NOW);
    await h.runtime.runOnce();
    const storage = h.services.storage as MemoryStorage;
    const puts = storage.puts;
    const p2 = await h.post(10, image(h.url('/two.png')));
    await syncPostMedia(h.store.db, [p2], NOW);
    const [r] = await h.runtime.runOnce();
    expect(r).toMatchObject({ status: 'ready', pictures: 1 });
    expect(storage.puts).toBe(puts);
    expect(await h.store.db.selectFrom('media_blobs').select('hash').execute()).toHaveLength(1);
  });

  it('backfill: posts stored before the media pipeline are queued and fetched', async () => {
    h = await startQueueHarness();
    h.replies.set('/old.jpg', picture(await photoJpeg(120, 90), 'image/jpeg'));
    const old = await h.post(10, image(h.url('/old.jpg')));
    const text = await h.post(10, { content: 'words only' });
    expect(await mediaState(old)).toBeNull();
    const [r] = await h.runtime.runOnce();
    expect(r).toMatchObject({ status: 'ready' });
    expect(await mediaState(old)).toBe('ready');
    expect(await mediaState(text)).toBe('none');
  });
});

describe('failures: retried with backoff, then given up', () => {
  it('a 500, then a 200 once the backoff has passed (the clock injected, no waiting)', async () => {
    h = await startQueueHarness({ config: { retryMinS: 60, retryMaxS: 3600 } });
    const png = await pngWithAlpha(64, 64);
    h.replies.set('/flaky.png', [{ status: 500, body: 'oops' }, picture(png)]);
    const id = await h.post(10, image(h.url('/flaky.png')));
    await syncPostMedia(h.store.db, [id], NOW);

    const [first] = await h.runtime.runOnce();
    expect(first).toMatchObject({
      status: 'failed',
      gaveUp: false,
      message: `HTTP 500 from ${h.upstream.origin.slice(7)}`,
    });
    // backoffDelayS(60..3600, 1 failure, random 0.5) = 60 × 0.75 → 45 s, raised to the 60 s minimum
    expect(await rows(id)).toMatchObject([
      { state: 'pending', attempts: 1, reason: null, next_attempt_at: NOW + 60_000, lease_owner: null },
    ]);
    expect(await mediaState(id)).toBe('pending');

    // not due yet: nothing is fetched
    h.clock.now = NOW + 59_999;
    expect(await h.runtime.runOnce()).toEqual([]);
    expect(requestsTo('/flaky.png')).toBe(1);

    h.clock.now = NOW + 60_000;
    const [second] = await h.runtime.runOnce();
    expect(second).toMatchObject({ status: 'ready', pictures: 1 });
    expect(await rows(id)).toMatchObject([{ state: 'ready', attempts: 1, reason: null }]);
    expect(await mediaState(id)).toBe('ready');
    expect(h.runtime.stats.fetches).toMatchObject({ failed: 1, ready: 1 });
  });

  it('the backoff doubles; at MEDIA_MAX_ATTEMPTS the picture is failed with the last reason', async () => {
    const lines: string[] = [];
    h = await startQueueHarness({
      config: { maxAttempts: 3, retryMinS: 10, retryMaxS: 3600 },
      runtime: { log: jsonLogger('info', (l) => lines.push(l)) },
    });
    h.replies.set('/down.png', { status: 503, body: 'down' });
    const id = await h.post(10, image(h.url('/down.png')));
    await syncPostMedia(h.store.db, [id], NOW);
    // 10 × 2^(n−1) × 0.75 (random 0.5), at least 10: 10, 15 s
    const waits = [10_000, 15_000];
    for (const [i, wait] of waits.entries()) {
      const [r] = await h.runtime.runOnce();
      expect(r).toMatchObject({ status: 'failed', gaveUp: false });
      expect((await rows(id))[0]).toMatchObject({ attempts: i + 1, next_attempt_at: h.clock.now + wait });
      h.clock.now += wait;
    }
    const [last] = await h.runtime.runOnce();
    expect(last).toMatchObject({ status: 'failed', gaveUp: true });
    expect(await rows(id)).toMatchObject([
      { state: 'failed', attempts: 3, reason: `HTTP 503 from ${h.upstream.origin.slice(7)}`, lease_owner: null },
    ]);
    expect(await mediaState(id)).toBe('failed');
    h.clock.now += 86_400_000;
    expect(await h.runtime.runOnce()).toEqual([]);
    // one log line per failure
    const failures = lines.map((l) => JSON.parse(l) as { msg: string }).filter((l) => l.msg === 'picture fetch failed');
    expect(failures).toHaveLength(3);
  });

  it('a host that answers 429 is paused: its other pictures wait, no attempt counted against them', async () => {
    h = await startQueueHarness({ config: { concurrency: 1 } });
    h.replies.set('/busy.png', { status: 429, headers: { 'retry-after': '120' }, body: '' });
    h.replies.set('/other.png', picture(await pngWithAlpha(64, 64)));
    const a = await h.post(10, image(h.url('/busy.png')));
    await syncPostMedia(h.store.db, [a], NOW);
    const [r] = await h.runtime.runOnce();
    expect(r).toMatchObject({ status: 'failed' });
    const b = await h.post(10, image(h.url('/other.png')));
    await syncPostMedia(h.store.db, [b], NOW);
    const [deferred] = await h.runtime.runOnce();
    expect(deferred).toMatchObject({ url: h.url('/other.png'), status: 'deferred' });
    expect(await rows(b)).toMatchObject([{ state: 'pending', attempts: 0, next_attempt_at: NOW + 120_000 }]);
    expect(requestsTo('/other.png')).toBe(0);
  });
});

describe('refusals: never retried', () => {
  it('HTML served as a JPEG, a file over MEDIA_MAX_BYTES, an address the guard refuses', async () => {
    h = await startQueueHarness({ config: { maxBytes: 2048 } });
    h.replies.set('/fake.jpg', {
      status: 200,
      headers: { 'content-type': 'image/jpeg' },
      body: '<!DOCTYPE html><html><body>Not a picture</body></html>',
    });
    h.replies.set('/big.jpg', picture(await photoJpeg(400, 300), 'image/jpeg'));
    const fake = await h.post(10, image(h.url('/fake.jpg')));
    const big = await h.post(10, image(h.url('/big.jpg')));
    const inside = await h.post(10, image('http://10.1.2.3/inside.png'));
    await syncPostMedia(h.store.db, [fake, big, inside], NOW);
    const reports = await h.runtime.runOnce();
    expect(reports.map((r) => r.status)).toEqual(['refused', 'refused', 'refused']);
    const [f] = await rows(fake);
    expect(f).toMatchObject({ state: 'refused', attempts: 0 });
    expect(f!.reason).toMatch(/html/i);
    expect((await rows(big))[0]!.reason).toMatch(/^larger than 2048 bytes \(MEDIA_MAX_BYTES\)/);
    expect((await rows(inside))[0]!.reason).toMatch(/^refused: /);
    expect(await mediaState(fake)).toBe('failed');
    h.clock.now += 86_400_000;
    expect(await h.runtime.runOnce()).toEqual([]);
    expect(h.upstream.requests).toHaveLength(2);
  });
});

describe('the account quota', () => {
  it('past it a picture is failed with the reason; another account, and a picture it shows already, are not', async () => {
    h = await startQueueHarness();
    // the second is smaller than the first: it fits another account's quota the first fills
    h.replies.set('/first.png', picture(await photoJpeg(320, 240), 'image/jpeg'));
    h.replies.set('/second.jpg', picture(await pngWithAlpha(64, 64)));
    const p1 = await h.post(10, image(h.url('/first.png')));
    await syncPostMedia(h.store.db, [p1], NOW);
    await h.runtime.runOnce();
    const used = Number((await h.store.db.selectFrom('media_blobs').select('bytes').executeTakeFirstOrThrow()).bytes);

    // a quota the first picture fills: one byte more than it takes
    h.restart({ config: testMediaConfig({ accountQuotaBytes: used + 1 }) });
    const p2 = await h.post(11, image(h.url('/second.jpg')));
    const p3 = await h.post(20, image(h.url('/second.jpg')));
    // the same picture again (an account's picture counts once)
    const p4 = await h.post(11, image(h.url('/first.png'), h.url('/second.jpg')));
    await syncPostMedia(h.store.db, [p2, p3, p4], NOW);
    expect((await rows(p4)).find((r) => r.slot === 'item:0')).toMatchObject({ state: 'ready' });

    const [r] = await h.runtime.runOnce();
    expect(r).toMatchObject({ status: 'ready', pictures: 1 });
    const reason = `the account’s media quota (${Number(((used + 1) / 1024 / 1024).toFixed(2))} MB) is used up`;
    expect(await rows(p2)).toMatchObject([{ state: 'failed', reason, attempts: 0 }]);
    expect(await rows(p3)).toMatchObject([{ state: 'ready' }]);
    expect((await rows(p4)).find((x) => x.slot === 'avatar')).toMatchObject({ state: 'failed', reason });
    expect(await mediaState(p4)).toBe('partial');
    // never retried on its own
    h.clock.now += 86_400_000;
    expect(await h.runtime.runOnce()).toEqual([]);
  });
});

describe('the tick', () => {
  it('queues earlier posts, starts a job per due URL without waiting for it, and announces the walls', async () => {
    h = await startQueueHarness();
    h.replies.set('/t.png', picture(await pngWithAlpha(64, 64)));
    const old = await h.post(20, image(h.url('/t.png')));
    await h.runtime.tick();
    await h.runtime.settled();
    expect(await rows(old)).toMatchObject([{ state: 'ready', attempts: 0 }]);
    expect(await mediaState(old)).toBe('ready');
    expect(h.changed).toContain(20);
    // the backfill found nothing more: it looks again only later; nothing else is due
    await h.runtime.tick();
    await h.runtime.settled();
    expect(requestsTo('/t.png')).toBe(1);
  });
});

describe('leases', () => {
  it('a stop cancels the fetch in flight and gives the lease back; another worker then takes it', async () => {
    h = await startQueueHarness();
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: (r: { status: number; body: Buffer }) => void;
    const held = new Promise<{ status: number; body: Buffer }>((resolve) => (answer = resolve));
    h.upstream.handler = () => {
      arrived();
      return held;
    };
    const id = await h.post(10, image(h.url('/slow.png')));
    await syncPostMedia(h.store.db, [id], NOW);
    const running = h.runtime.runOnce();
    await requested;
    expect(await rows(id)).toMatchObject([{ state: 'pending', lease_owner: 'test-media' }]);
    await h.runtime.stop();
    expect(await running).toMatchObject([{ status: 'skipped' }]);
    expect(await rows(id)).toMatchObject([{ state: 'pending', attempts: 0, lease_owner: null }]);

    const png = await pngWithAlpha(64, 64);
    answer({ status: 200, body: png });
    h.upstream.handler = () => picture(png);
    h.restart({ owner: 'another' });
    expect(await h.runtime.runOnce()).toMatchObject([{ status: 'ready', pictures: 1 }]);
  });
});
