// GET /media/{hash}/{name}: the copies of pictures, from a folder and from
// S3 (s3rver) — the format negotiated by Accept (Vary: Accept) or named; only
// the widths stored; AVIF, JPEG and PNG rendered from the master on first
// request, once however many ask, stored and counted in the picture's bytes;
// immutable caching, ETag and 304, ranges (folder), the headers that let any
// site show a copy and no page run one; 404 for anything else, for a file
// gone from the storage (not cached), and without a media pipeline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderStorage } from '../../../src/media/folder-storage.js';
import { mediaKey } from '../../../src/media/names.js';
import { S3Storage } from '../../../src/media/s3-storage.js';
import type { MediaStorage } from '../../../src/media/types.js';
import { recordExchange } from '../../helpers/conformance.js';
import { animatedGif, photoJpeg, pngWithAlpha } from '../../media/pictures.js';
import { fakeHash, inlineProcessor, storePicture, type BlobSpec } from '../../helpers/media.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const AVIF_FIRST = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';
const WEBP_ONLY = 'image/webp,*/*';

interface Got {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** A request to the server, its answer held against the OpenAPI document like every API answer. */
async function get(srv: TestServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  const res = await fetch(srv.baseUrl + path, { method, headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const body = (res.headers.get('content-type') ?? '').startsWith('image/') ? '' : bytes.toString();
  recordExchange(srv.baseUrl, { method, url: path, status: res.status, headers: res.headers, body });
  return { status: res.status, headers: res.headers, bytes };
}

const formatOf = async (bytes: Buffer) => (await sharp(bytes).metadata()).format;
const widthOf = async (bytes: Buffer) => (await sharp(bytes).metadata()).width;

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `wallery-media-serve-${name}-`));
  temps.push(dir);
  return dir;
};

function expectCopyHeaders(res: Got, etag: string, negotiated: boolean) {
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(res.headers.get('etag')).toBe(etag);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('vary')).toBe(negotiated ? 'Accept' : null);
}

describe.each([
  ['folder', (): MediaStorage => new FolderStorage(tempDir('folder'))],
  ['s3', (): MediaStorage => s3Storage()],
])('copies served from %s storage', (kind, makeStorage) => {
  let srv: TestServer;
  let storage: MediaStorage;
  const processor = inlineProcessor();
  let photo: BlobSpec;
  let alpha: BlobSpec;
  let animation: BlobSpec;
  beforeAll(async () => {
    storage = makeStorage();
    srv = await startTestServer({ media: { storage, processor } });
    photo = await storePicture(srv.store.db, storage, await photoJpeg(1200, 800));
    alpha = await storePicture(srv.store.db, storage, await pngWithAlpha(300, 200));
    animation = await storePicture(srv.store.db, storage, await animatedGif(200, 120, 3));
  });
  afterAll(async () => {
    await srv?.close();
    await storage?.close();
  });

  it('has the renditions the worker made: WebP at each width, never wider than the picture', () => {
    expect(photo.widths).toEqual([320, 640, 1080, 1200]);
    expect(alpha.widths).toEqual([300]);
    expect(animation.animated).toBe(true);
  });

  it('negotiates the format from Accept (Vary: Accept): WebP from the store, AVIF made once on first request', async () => {
    const webp = await get(srv, `/media/${photo.hash}/640`, { accept: WEBP_ONLY });
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expectCopyHeaders(webp, `"${photo.hash}/640.webp"`, true);
    expect(await widthOf(webp.bytes)).toBe(640);
    expect(processor.renders).toBe(0);

    const before = await srv.store.db
      .selectFrom('media_blobs')
      .select('bytes')
      .where('hash', '=', photo.hash)
      .executeTakeFirstOrThrow();
    // five browsers at once: one rendition made
    const avifs = await Promise.all(
      Array.from({ length: 5 }, () => get(srv, `/media/${photo.hash}/320`, { accept: AVIF_FIRST })),
    );
    for (const avif of avifs) {
      expect(avif.status).toBe(200);
      expect(avif.headers.get('content-type')).toBe('image/avif');
      expectCopyHeaders(avif, `"${photo.hash}/320.avif"`, true);
      expect(await formatOf(avif.bytes)).toBe('heif');
      expect(await widthOf(avif.bytes)).toBe(320);
    }
    expect(processor.renders).toBe(1);
    // stored, and counted in what the picture takes
    const stored = await storage.get(mediaKey(photo.hash, '320.avif'));
    expect(stored?.bytes.equals(avifs[0]!.bytes)).toBe(true);
    const after = await srv.store.db
      .selectFrom('media_blobs')
      .select('bytes')
      .where('hash', '=', photo.hash)
      .executeTakeFirstOrThrow();
    expect(Number(after.bytes)).toBe(Number(before.bytes) + stored!.size);
    // from the store from now on
    const again = await get(srv, `/media/${photo.hash}/320`, { accept: AVIF_FIRST });
    expect(again.bytes.equals(avifs[0]!.bytes)).toBe(true);
    expect(processor.renders).toBe(1);
  });

  it('gives JPEG to a client that names neither AVIF nor WebP, PNG for a picture with alpha, no AVIF of an animation', async () => {
    const jpeg = await get(srv, `/media/${photo.hash}/1080`, { accept: '*/*' });
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(await formatOf(jpeg.bytes)).toBe('jpeg');
    const png = await get(srv, `/media/${alpha.hash}/300`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(await formatOf(png.bytes)).toBe('png');
    const animated = await get(srv, `/media/${animation.hash}/200`, { accept: AVIF_FIRST });
    expect(animated.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(animated.bytes, { animated: true }).metadata()).pages).toBe(3);
  });

  it('serves a named format whatever Accept says, without Vary', async () => {
    const named = await get(srv, `/media/${photo.hash}/1200.webp`, { accept: 'image/avif' });
    expect(named.status).toBe(200);
    expect(named.headers.get('content-type')).toBe('image/webp');
    expectCopyHeaders(named, `"${photo.hash}/1200.webp"`, false);
    const png = await get(srv, `/media/${photo.hash}/320.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(await widthOf(png.bytes)).toBe(320);
  });

  it('answers If-None-Match with 304 and the same headers', async () => {
    const first = await get(srv, `/media/${photo.hash}/640`, { accept: WEBP_ONLY });
    const etag = first.headers.get('etag')!;
    const again = await get(srv, `/media/${photo.hash}/640`, { accept: WEBP_ONLY, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expectCopyHeaders(again, etag, true);
    // another format is another file
    const other = await get(srv, `/media/${photo.hash}/640`, { accept: '*/*', 'if-none-match': etag });
    expect(other.status).toBe(200);
  });

  it('answers HEAD with the headers alone', async () => {
    const head = await get(srv, `/media/${photo.hash}/640.webp`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/webp');
    expect(head.bytes.length).toBe(0);
  });

  it.runIf(kind === 'folder')('serves a byte range of a file (folder storage)', async () => {
    const whole = await get(srv, `/media/${photo.hash}/640.webp`);
    const part = await get(srv, `/media/${photo.hash}/640.webp`, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${whole.bytes.length}`);
    expect(part.bytes.equals(whole.bytes.subarray(0, 100))).toBe(true);
    expectCopyHeaders(part, `"${photo.hash}/640.webp"`, false);
  });

  it('is the server’s 404 for anything else: no such picture, width or name; never cached', async () => {
    const paths = [
      `/media/${fakeHash('nothing')}/640`,
      `/media/${photo.hash}/500`,
      `/media/${photo.hash}/1600`,
      `/media/${photo.hash}/0640`,
      `/media/${photo.hash}/640.gif`,
      `/media/${photo.hash}/640.jpeg`,
      `/media/${photo.hash}/master.jpg`,
      `/media/${photo.hash.toUpperCase()}/640`,
      `/media/${photo.hash.slice(1)}/640`,
      `/media/${photo.hash}/640/extra`,
      `/media/${photo.hash}/%2e%2e%2fmaster.jpg`,
    ];
    for (const path of paths) {
      const res = await get(srv, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control'), path).toBeNull();
    }
  });

  it('answers 404, not cached, for a rendition whose file is gone from the storage', async () => {
    const gone = await storePicture(srv.store.db, storage, await photoJpeg(700, 500));
    await storage.delete([mediaKey(gone.hash, '320.webp')]);
    const res = await get(srv, `/media/${gone.hash}/320`, { accept: WEBP_ONLY });
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBeNull();
    expect(res.headers.get('etag')).toBeNull();
    // with its master gone too, no other format can be made
    await storage.delete([mediaKey(gone.hash, gone.master!)]);
    expect((await get(srv, `/media/${gone.hash}/320`, { accept: '*/*' })).status).toBe(404);
  });

  it('leaves no file behind when the picture is deleted while a rendition of it is made', async () => {
    const doomed = await storePicture(srv.store.db, storage, await photoJpeg(640, 480));
    // the next rendition waits at the gate until the picture is gone
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let started!: () => void;
    const rendering = new Promise<void>((resolve) => (started = resolve));
    const render = processor.render;
    processor.render = async (...args) => {
      started();
      await gate;
      return render(...args);
    };
    try {
      const asked = get(srv, `/media/${doomed.hash}/320`, { accept: AVIF_FIRST });
      await rendering;
      // the post's erasure: its record, then its files (src/http/submit's delete link does the same)
      await srv.store.db.deleteFrom('media_blobs').where('hash', '=', doomed.hash).execute();
      const keys: string[] = [];
      for await (const f of storage.list(mediaKey(doomed.hash, ''))) keys.push(f.key);
      await storage.delete(keys);
      open();
      expect((await asked).status).toBe(404);
      const left: string[] = [];
      for await (const f of storage.list(mediaKey(doomed.hash, ''))) left.push(f.key);
      expect(left).toEqual([]);
    } finally {
      processor.render = render;
    }
  });

  it('counts the copies served from the store and those rendered on request', async () => {
    const text = await (await fetch(`${srv.baseUrl}/metrics`)).text();
    const count = (source: string) =>
      Number(new RegExp(`^wallery_media_served_total\\{source="${source}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? -1);
    expect(count('store')).toBeGreaterThan(0);
    expect(count('rendered')).toBeGreaterThanOrEqual(5);
    expect(text).toMatch(
      /wallery_http_request_duration_seconds_count\{route="media",method="GET",status_class="2xx"\}/,
    );
  });
});

describe('an instance without a media pipeline', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({});
  });
  afterAll(async () => srv?.close());

  it('answers 404 for every copy', async () => {
    const res = await get(srv, `/media/${fakeHash('any')}/640`);
    expect(res.status).toBe(404);
  });
});

// ---- S3: a real S3-compatible server (s3rver) in this process ----

let s3: S3rver | null = null;
let s3Endpoint = '';
let prefixes = 0;
const BUCKET = 'wallery-media';
beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: tempDir('s3rver'),
    configureBuckets: [{ name: BUCKET }],
  });
  const { address, port } = await s3.run();
  s3Endpoint = `http://${address}:${port}`;
});
afterAll(async () => {
  s3?.httpServer?.closeAllConnections();
  await s3?.close();
});
const s3Storage = () =>
  new S3Storage({
    bucket: BUCKET,
    endpoint: s3Endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: `serve-${++prefixes}`,
  });
