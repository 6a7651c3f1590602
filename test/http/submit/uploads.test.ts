// Attendee uploads end to end over real HTTP, on the project's store (SQLite
// and PostgreSQL): the page is off until enabled (the kill switch); a solved
// challenge, a JPEG with GPS and a line of text → a pending post on the
// wall's upload feed, its stored files without GPS, its consent on record,
// shown as `upload` in v2 once approved; the private link deletes it (the
// post, its picture rows and its files). The abuse cases are each refused
// with a clear message: no challenge, a replayed one, a photo over the cap,
// a renamed executable, a decompression bomb, a 100-upload burst from one
// address (loopback only). A real HEIC (test/fixtures/media/) as an iPhone
// sends it, and the same bytes sent as application/octet-stream: accepted,
// stored upright as JPEG/WebP without GPS.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderStorage } from '../../../src/media/folder-storage.js';
import { MediaPool } from '../../../src/media/media-pool.js';
import { consentsOfPosts, saveSubmission } from '../../../src/store/uploads.js';
import { postsByIds, updatePostRow } from '../../../src/store/posts.js';
import { GPS_MARK, orientedJpegWithGps, pngBomb } from '../../media/pictures.js';
import { HEIC_GPS_MARK, HEIC_UPRIGHT, heicSample, heicSampleLayout, UPRIGHT_LAYOUT } from '../../media/heic-sample.js';
import { hasSampleData, loadSampleData, startTestServer, type TestServer } from '../../helpers/server.js';

const WALL = 7011;
const KEY = 'Demo-ent-key-0001';
let srv: TestServer;
let pool: MediaPool;
let mediaDir: string;
let storage: FolderStorage;

beforeAll(async () => {
  if (!hasSampleData) return;
  mediaDir = mkdtempSync(join(tmpdir(), 'wallery-uploads-'));
  storage = new FolderStorage(mediaDir);
  pool = new MediaPool({ threads: 1 });
  srv = await startTestServer({ data: loadSampleData(), media: { storage, processor: pool } });
}, 60_000);

afterAll(async () => {
  await srv?.close();
  await pool?.close();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
});

async function enable(patch: Parameters<typeof saveSubmission>[2] = {}) {
  await saveSubmission(srv.store.db, WALL, { enabled: true, ...patch }, 'k'.repeat(64), srv.clock.now);
}

/** A solved challenge, as the page's script sends it. */
async function solved(wall = WALL): Promise<string> {
  const res = await fetch(`${srv.baseUrl}/walls/${wall}/submit/challenge`);
  expect(res.status).toBe(200);
  const c = (await res.json()) as {
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  // the browser's search, done with Node's synchronous SHA-256 (fast: the test's time is the server's)
  let number = 0;
  while (
    createHash('sha256')
      .update(c.salt + number)
      .digest('hex') !== c.challenge
  )
    number++;
  expect(number).toBeLessThanOrEqual(c.maxnumber);
  return Buffer.from(JSON.stringify({ ...c, number })).toString('base64');
}

interface Sent {
  status: number;
  body: { postId?: number; state?: string; deleteUrl?: string; responseMessage?: string; problem?: string };
}

async function upload(
  fields: {
    altcha?: string;
    photo?: Buffer;
    type?: string;
    filename?: string;
    text?: string;
    name?: string;
    consent?: string;
  },
  headers: Record<string, string> = {},
): Promise<Sent> {
  const form = new FormData();
  if (fields.altcha !== undefined) form.append('altcha', fields.altcha);
  form.append('name', fields.name ?? 'Ana');
  form.append('text', fields.text ?? '');
  form.append('consent', fields.consent ?? 'yes');
  if (fields.photo)
    form.append(
      'photo',
      new Blob([fields.photo], { type: fields.type ?? 'image/jpeg' }),
      fields.filename ?? 'photo.jpg',
    );
  const res = await fetch(`${srv.baseUrl}/walls/${WALL}/submit`, {
    method: 'POST',
    body: form,
    headers: { accept: 'application/json', ...headers },
  });
  return { status: res.status, body: (await res.json()) as Sent['body'] };
}

describe.skipIf(!hasSampleData)('attendee uploads', () => {
  it('keeps the page closed until the wall enables it, and again once the kill switch is on', async () => {
    const before = await fetch(`${srv.baseUrl}/walls/${WALL}/submit`);
    expect(before.status).toBe(404);
    expect(await before.text()).toContain('Posting is closed');
    expect((await fetch(`${srv.baseUrl}/walls/${WALL}/submit/challenge`)).status).toBe(404);
    await enable();
    const page = await fetch(`${srv.baseUrl}/walls/${WALL}/submit`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('accept="image/*,.heic,.heif"');
    expect(html).toContain('Demo Summer Wall');
    await enable({ enabled: false });
    expect((await fetch(`${srv.baseUrl}/walls/${WALL}/submit`)).status).toBe(404);
    await enable();
  });

  it('takes a photo with GPS and a line of text: pending, stored without GPS, consent on record, deleted by its link', async () => {
    await enable({ consentText: 'I agree to be on the wall.' });
    const jpeg = await orientedJpegWithGps(1200, 800);
    expect(jpeg.includes(Buffer.from(GPS_MARK))).toBe(true);
    const sent = await upload({ altcha: await solved(), photo: jpeg, text: 'Hello from row 3 #keynote' });
    expect(sent.status).toBe(201);
    expect(sent.body.state).toBe('pending');
    const postId = sent.body.postId!;
    const [post] = await postsByIds(srv.store.db, [postId]);
    expect(post!.network_name).toBe('upload');
    expect(post!.author_name).toBe('Ana');
    expect(post!.tags).toBe('keynote');
    expect(post!.media_state).toBe('ready');
    // every stored file of the picture: no EXIF, no GPS
    const files: string[] = [];
    for await (const f of storage.list('')) files.push(f.key);
    expect(files.length).toBeGreaterThan(1);
    for (const key of files) {
      const bytes = (await storage.get(key))!.bytes;
      expect(bytes.includes(Buffer.from(GPS_MARK))).toBe(false);
      expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    }
    const consent = (await consentsOfPosts(srv.store.db, [postId])).get(postId)!;
    expect(consent.text).toBe('I agree to be on the wall.');
    expect(consent.version).toBe(2);

    // pending: not in v2; approved: shown as an upload
    const v2 = async () =>
      (
        (await (await fetch(`${srv.baseUrl}/api/v2/widget/posts/${WALL}?user_key=${KEY}&limit=100`)).json()) as {
          responseData: {
            posts?: { postId: string; networkName: string; feedName: string; postPicture: string; content: string }[];
          }[];
        }
      ).responseData[0]!;
    const shown = async () => ((await v2()).posts ?? []).find((p) => p.postId === String(postId));
    expect(await shown()).toBeUndefined();
    await updatePostRow(srv.store.db, postId, { state: 'approved' });
    srv.app.ctx.changes.wallChanged(WALL);
    const item = await shown();
    expect(item).toMatchObject({ networkName: 'upload', feedName: 'Attendee uploads' });
    expect(item!.postPicture).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/[0-9a-f]{64}\/\d+$/);
    expect(post!.post_type).toBe(2);

    // the private link: a confirmation page, then the erasure
    const link = new URL(sent.body.deleteUrl!);
    const confirm = await fetch(link);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('Delete my post');
    const del = await fetch(link, { method: 'POST', headers: { accept: 'application/json' } });
    expect(del.status).toBe(200);
    expect(await postsByIds(srv.store.db, [postId])).toEqual([]);
    const left: string[] = [];
    for await (const f of storage.list('')) left.push(f.key);
    expect(left).toEqual([]);
    srv.app.ctx.changes.wallChanged(WALL);
    expect(await shown()).toBeUndefined();
    expect((await fetch(link, { method: 'POST' })).status).toBe(404);
  });

  it('refuses an upload without a solved challenge, and a challenge used twice', async () => {
    const none = await upload({ text: 'hi' });
    expect(none.status).toBe(403);
    expect(none.body.problem).toBe('challenge');
    expect(none.body.responseMessage).toMatch(/could not be checked/);
    const forged = await upload({ altcha: Buffer.from('{"challenge":"x","salt":"y"}').toString('base64'), text: 'hi' });
    expect(forged.body.problem).toBe('challenge');
    const altcha = await solved();
    expect((await upload({ altcha, text: 'once' })).status).toBe(201);
    const again = await upload({ altcha, text: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.problem).toBe('replay');
  });

  it('refuses a photo over the cap, a renamed executable and a decompression bomb, each with its message', async () => {
    await enable({ maxBytes: 512 * 1024 });
    const big = await upload({ altcha: await solved(), photo: Buffer.alloc(600 * 1024, 0xff) });
    expect(big.status).toBe(413);
    expect(big.body.responseMessage).toMatch(/too large: up to 0 MB|too large/);
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4096)]);
    const exe = await upload({ altcha: await solved(), photo: elf });
    expect(exe.status).toBe(415);
    expect(exe.body.problem).toBe('not_a_picture');
    const bomb = await upload({ altcha: await solved(), photo: pngBomb(20_000, 20_000), type: 'image/png' });
    expect(bomb.status).toBe(422);
    expect(bomb.body.problem).toBe('too_many_pixels');
    await enable({ maxBytes: 15 * 1024 * 1024 });
  });

  it('refuses what is missing: no photo and no text, no name, no consent', async () => {
    expect((await upload({ altcha: await solved(), text: '' })).body.problem).toBe('empty');
    expect((await upload({ altcha: await solved(), text: 'x', name: '  ' })).body.problem).toBe('name');
    expect((await upload({ altcha: await solved(), text: 'x', consent: '' })).body.problem).toBe('consent');
  });

  it('takes an iPhone HEIC (image/heic, IMG_0001.HEIC) and the same bytes as application/octet-stream: upright, no GPS', async () => {
    await enable({ maxBytes: 15 * 1024 * 1024 });
    const gps = Buffer.from(HEIC_GPS_MARK);
    const before = new Set<string>();
    for await (const f of storage.list('')) before.add(f.key);
    expect(heicSample().includes(gps)).toBe(true);
    for (const sentAs of [
      { type: 'image/heic', filename: 'IMG_0001.HEIC', text: 'from an iPhone' },
      { type: 'application/octet-stream', filename: 'IMG_0002', text: 'from a phone that says nothing of its type' },
    ]) {
      const sent = await upload({ altcha: await solved(), photo: heicSample(), ...sentAs });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const [post] = await postsByIds(srv.store.db, [sent.body.postId!]);
      expect(post!.media_state).toBe('ready');
      // the picture's files, kept under the source's hash: the same photo both times, the same files
      const files: string[] = [];
      for await (const f of storage.list('')) if (!before.has(f.key)) files.push(f.key);
      expect(files.length).toBeGreaterThan(1);
      for (const key of files) {
        const bytes = (await storage.get(key))!.bytes;
        expect(bytes.includes(gps)).toBe(false);
        const meta = await sharp(bytes).metadata();
        expect(['jpeg', 'webp']).toContain(meta.format);
        expect(meta.exif).toBeUndefined();
        expect(meta.width! / meta.height!).toBeCloseTo(HEIC_UPRIGHT.width / HEIC_UPRIGHT.height, 2);
        expect(await heicSampleLayout(bytes)).toEqual(UPRIGHT_LAYOUT);
      }
      const master = files.find((k) => k.includes('master.'));
      expect(master).toBeDefined();
      expect(await sharp((await storage.get(master!))!.bytes).metadata()).toMatchObject(HEIC_UPRIGHT);
    }
  });

  it('refuses a burst of 100 uploads from one address once its hourly limit is used up', async () => {
    await enable({ perIpPerHour: 5, perWallPerMinute: 1000 });
    const statuses: number[] = [];
    let message = '';
    for (let i = 0; i < 100; i++) {
      const r = await upload({ text: `burst ${i}` });
      statuses.push(r.status);
      if (r.status === 429) message = r.body.responseMessage!;
    }
    // the limit counts before the challenge is read: the first 5 reach it (403 without one), the rest wait
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - statuses.filter((s) => s !== 429).length);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(95);
    expect(message).toMatch(/posted a lot/);
  });
});
