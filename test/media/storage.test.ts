// The two media storages (src/media/folder-storage.ts, s3-storage.ts) held to
// one suite: what processing writes and serving reads must behave alike in a
// folder and in a bucket. S3 is a real S3-compatible server (s3rver, in this
// process, on a free port) spoken to by the real AWS SDK.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FolderStorage } from '../../src/media/folder-storage.js';
import { mediaKey } from '../../src/media/names.js';
import { S3Storage, type S3Options } from '../../src/media/s3-storage.js';
import { createMediaStorage } from '../../src/media/storage.js';
import type { MediaStorage } from '../../src/media/types.js';

const BUCKET = 'wallery-media';
const HASH_A = 'ab'.repeat(32);
const HASH_B = 'abcd'.repeat(16);
const HASH_C = 'cd'.repeat(32);

const temps: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `wallery-media-${name}-`));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

let s3: S3rver;
let s3Options: S3Options;
beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: tempDir('s3rver'),
    configureBuckets: [{ name: BUCKET }],
  });
  const { address, port } = await s3.run();
  s3Options = {
    bucket: BUCKET,
    endpoint: `http://${address}:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
});
afterAll(async () => {
  s3.httpServer?.closeAllConnections();
  await s3.close();
});

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text));

async function listed(storage: MediaStorage, prefix?: string) {
  const out: { key: string; size: number }[] = [];
  for await (const item of storage.list(prefix)) out.push(item);
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

let prefixes = 0;
/** Each storage kind, fresh for every test: a new folder, or a new prefix in the bucket. */
const kinds: [string, () => MediaStorage][] = [
  ['folder', () => new FolderStorage(tempDir('folder'))],
  ['s3', () => new S3Storage({ ...s3Options, prefix: `test-${++prefixes}` })],
];

describe.each(kinds)('%s storage', (kind, make) => {
  let storage: MediaStorage;
  const open = () => (storage = make());
  afterEach(async () => {
    await storage?.close();
  });

  it('keeps what is put: bytes, size and content type', async () => {
    open();
    expect(storage.kind).toBe(kind);
    const key = mediaKey(HASH_A, '640.webp');
    await storage.put(key, bytesOf('a webp picture'), 'image/webp');
    expect(await storage.has(key)).toBe(true);
    const got = await storage.get(key);
    expect(got).toMatchObject({ size: 14, contentType: 'image/webp' });
    expect(got!.bytes).toBeInstanceOf(Buffer);
    expect(got!.bytes.toString()).toBe('a webp picture');
  });

  it('a missing key: get is null, has is false', async () => {
    open();
    expect(await storage.get(mediaKey(HASH_A, 'master.jpg'))).toBeNull();
    expect(await storage.has(mediaKey(HASH_A, 'master.jpg'))).toBe(false);
    // a key whose folder is a file's name
    await storage.put('ab/file.jpg', bytesOf('x'), 'image/jpeg');
    expect(await storage.get('ab/file.jpg/master.jpg')).toBeNull();
    expect(await storage.has('ab/file.jpg/master.jpg')).toBe(false);
    expect(await storage.has('ab')).toBe(false);
  });

  it('a put over a key replaces it', async () => {
    open();
    const key = mediaKey(HASH_A, 'master.jpg');
    await storage.put(key, bytesOf('first version, longer'), 'image/jpeg');
    await storage.put(key, bytesOf('second'), 'image/jpeg');
    expect((await storage.get(key))!.bytes.toString()).toBe('second');
    expect(await listed(storage)).toEqual([{ key, size: 6 }]);
  });

  it('empty and binary files are kept byte for byte', async () => {
    open();
    const binary = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    await storage.put(mediaKey(HASH_A, '320.png'), binary, 'image/png');
    await storage.put(mediaKey(HASH_A, '1.png'), new Uint8Array(0), 'image/png');
    expect(Buffer.compare((await storage.get(mediaKey(HASH_A, '320.png')))!.bytes, binary)).toBe(0);
    expect(await storage.get(mediaKey(HASH_A, '1.png'))).toMatchObject({ size: 0 });
  });

  it('lists every key, or those under a prefix, with their sizes', async () => {
    open();
    const files: [string, string][] = [
      [mediaKey(HASH_A, 'master.jpg'), 'aaaa'],
      [mediaKey(HASH_A, '320.webp'), 'aa'],
      [mediaKey(HASH_B, 'master.png'), 'bbbbbb'],
      [mediaKey(HASH_C, 'master.gif'), 'c'],
    ];
    for (const [key, text] of files) await storage.put(key, bytesOf(text), 'image/jpeg');
    const all = files.map(([key, text]) => ({ key, size: text.length })).sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(await listed(storage)).toEqual(all);
    expect(await listed(storage, '')).toEqual(all);
    // a folder
    expect((await listed(storage, 'ab/')).map((f) => f.key)).toEqual(all.slice(0, 3).map((f) => f.key));
    // a picture's files
    expect((await listed(storage, `ab/${HASH_A}/`)).map((f) => f.key)).toEqual([
      mediaKey(HASH_A, '320.webp'),
      mediaKey(HASH_A, 'master.jpg'),
    ]);
    // a prefix that ends inside a name, as in S3
    expect((await listed(storage, 'ab/abcd')).map((f) => f.key)).toEqual([mediaKey(HASH_B, 'master.png')]);
    expect((await listed(storage, `ab/${HASH_A}/ma`)).map((f) => f.key)).toEqual([mediaKey(HASH_A, 'master.jpg')]);
    expect(await listed(storage, 'ef/')).toEqual([]);
    expect(await listed(storage, 'zz/nothing/here')).toEqual([]);
  });

  it('deletes keys; missing keys are fine; the rest stays', async () => {
    open();
    const keep = mediaKey(HASH_C, 'master.jpg');
    const gone = [mediaKey(HASH_A, 'master.jpg'), mediaKey(HASH_A, '320.webp')];
    for (const key of [keep, ...gone]) await storage.put(key, bytesOf(key), 'image/jpeg');
    await storage.delete([...gone, mediaKey(HASH_B, 'master.jpg'), 'never/was/here.jpg']);
    await storage.delete([]);
    for (const key of gone) expect(await storage.has(key)).toBe(false);
    expect(await listed(storage)).toEqual([{ key: keep, size: keep.length }]);
    // the same key can be put again after its folder went
    await storage.put(gone[0]!, bytesOf('again'), 'image/jpeg');
    expect((await storage.get(gone[0]!))!.bytes.toString()).toBe('again');
  });

  it('deletes more keys than one S3 request takes (1,000)', async () => {
    open();
    const keys = Array.from({ length: 1005 }, (_, i) => `many/${String(i).padStart(4, '0')}.webp`);
    await Promise.all(keys.slice(0, 3).map((key) => storage.put(key, bytesOf('x'), 'image/webp')));
    await storage.put(keys[1004]!, bytesOf('x'), 'image/webp');
    await storage.delete(keys);
    expect(await listed(storage)).toEqual([]);
  });

  it('keys with slashes, deep folders and any other character a name may have are kept as given', async () => {
    open();
    const keys = ['a/b/c/d/e/f/g.jpg', 'spaces and ü/ä ö.png', 'plus+equals=/semi;colon,comma.webp', 'x'];
    for (const key of keys) await storage.put(key, bytesOf(key), 'image/png');
    for (const key of keys) expect((await storage.get(key))!.bytes.toString()).toBe(key);
    expect((await listed(storage)).map((f) => f.key).sort()).toEqual([...keys].sort());
  });

  it('refuses keys that could leave the storage or collide with its own files', async () => {
    open();
    for (const key of [
      '../escape.jpg',
      'a/../../escape.jpg',
      '/absolute.jpg',
      'a//b.jpg',
      '.hidden',
      'a/.tmp',
      'a\\b.jpg',
      '',
    ]) {
      await expect(storage.put(key, bytesOf('x'), 'image/jpeg'), JSON.stringify(key)).rejects.toThrow(
        'not a valid media storage key',
      );
      await expect(storage.get(key), JSON.stringify(key)).rejects.toThrow('not a valid media storage key');
    }
  });
});

describe('folder storage', () => {
  it('a key is a file under the folder; localPath names it for sendFile', async () => {
    const dir = tempDir('folder');
    const storage = new FolderStorage(dir);
    const key = mediaKey(HASH_A, 'master.jpg');
    await storage.put(key, bytesOf('jpeg bytes'), 'image/jpeg');
    expect(storage.localPath(key)).toBe(join(dir, 'ab', HASH_A, 'master.jpg'));
    expect(readFileSync(storage.localPath(key), 'utf8')).toBe('jpeg bytes');
    expect(() => storage.localPath('../etc/passwd')).toThrow('not a valid media storage key');
  });

  it('the content type is the one the name’s extension stands for', async () => {
    const storage = new FolderStorage(tempDir('folder'));
    for (const [name, type] of [
      ['master.jpg', 'image/jpeg'],
      ['master.gif', 'image/gif'],
      ['640.avif', 'image/avif'],
      ['640.webp', 'image/webp'],
      ['640.png', 'image/png'],
      ['notes.txt', 'application/octet-stream'],
    ]) {
      await storage.put(mediaKey(HASH_A, name!), bytesOf('x'), 'ignored');
      expect((await storage.get(mediaKey(HASH_A, name!)))!.contentType, name).toBe(type);
    }
  });

  it('put is atomic: racing writers and a reader never see half a file, and no temporary file stays', async () => {
    // Each put writes a temporary file beside the key and renames it over
    // the key: a reader opens the whole old file or the whole new one. Two
    // versions of 4 MB each (never both in one file), put over one key
    // again and again while it is read.
    const dir = tempDir('folder');
    const storage = new FolderStorage(dir);
    const key = mediaKey(HASH_A, 'master.png');
    const versions = ['a', 'b'].map((c) => new Uint8Array(Buffer.alloc(4 * 1024 * 1024, c)));
    const seen = new Set<string>();
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const got = await storage.get(key);
        if (!got) continue;
        const first = got.bytes[0]!;
        const whole = got.size === 4 * 1024 * 1024 && got.bytes.every((b) => b === first);
        seen.add(whole ? String.fromCharCode(first) : `torn (${got.size} bytes)`);
      }
    })();
    await Promise.all(Array.from({ length: 40 }, (_, i) => storage.put(key, versions[i % 2]!, 'image/png')));
    writing = false;
    await reader;
    expect([...seen].filter((s) => s !== 'a' && s !== 'b')).toEqual([]);
    expect(readdirSync(join(dir, 'ab', HASH_A))).toEqual(['master.png']);
  });

  it('deleting a picture’s last file takes its folders away', async () => {
    const dir = tempDir('folder');
    const storage = new FolderStorage(dir);
    await storage.put(mediaKey(HASH_A, 'master.jpg'), bytesOf('x'), 'image/jpeg');
    await storage.put(mediaKey(HASH_C, 'master.jpg'), bytesOf('x'), 'image/jpeg');
    await storage.delete([mediaKey(HASH_A, 'master.jpg')]);
    expect(readdirSync(dir)).toEqual(['cd']);
    expect(readdirSync(join(dir, 'cd'))).toEqual([HASH_C]);
  });

  it('an empty or missing folder lists nothing', async () => {
    expect(await listed(new FolderStorage(join(tempDir('folder'), 'not-made-yet')))).toEqual([]);
  });
});

describe('S3 storage', () => {
  it('a prefix keeps its keys apart from the rest of the bucket', async () => {
    const one = new S3Storage({ ...s3Options, prefix: 'wallery/one' });
    const two = new S3Storage({ ...s3Options, prefix: '/wallery/two/' });
    const whole = new S3Storage(s3Options);
    try {
      const key = mediaKey(HASH_A, 'master.jpg');
      await one.put(key, bytesOf('one'), 'image/jpeg');
      await two.put(key, bytesOf('two'), 'image/jpeg');
      expect((await one.get(key))!.bytes.toString()).toBe('one');
      expect((await two.get(key))!.bytes.toString()).toBe('two');
      expect(await listed(one)).toEqual([{ key, size: 3 }]);
      expect((await listed(whole, 'wallery/')).map((f) => f.key)).toEqual([`wallery/one/${key}`, `wallery/two/${key}`]);
      await one.delete([key]);
      expect(await two.has(key)).toBe(true);
    } finally {
      await Promise.all([one.close(), two.close(), whole.close()]);
    }
  });

  it('keeps the content type it was given', async () => {
    const storage = new S3Storage({ ...s3Options, prefix: 'types' });
    try {
      await storage.put('x/master', bytesOf('x'), 'image/gif');
      expect(await storage.get('x/master')).toMatchObject({ contentType: 'image/gif' });
    } finally {
      await storage.close();
    }
  });

  it('has no local path', () => {
    const storage: MediaStorage = new S3Storage(s3Options);
    expect(storage.localPath).toBeUndefined();
    void storage.close();
  });

  it('wants both parts of a key or neither', () => {
    expect(() => new S3Storage({ ...s3Options, secretAccessKey: undefined })).toThrow('give both');
  });
});

describe('S3 storage, listing past one page', () => {
  // s3rver needs OpenSSL's legacy provider for its continuation tokens: in a process of its own
  let child: ChildProcessByStdio<Writable, Readable, null>;
  let options: S3Options;
  beforeAll(async () => {
    child = spawn(
      process.execPath,
      [
        '--openssl-legacy-provider',
        fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url)),
        tempDir('s3rver-paged'),
        BUCKET,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const { port } = JSON.parse(line) as { port: number };
    options = { ...s3Options, endpoint: `http://127.0.0.1:${port}` };
  });
  afterAll(async () => {
    const exited = once(child, 'exit');
    child.stdin.end();
    await exited;
  });

  it('lists more keys than one ListObjectsV2 page holds (1,000), page after page', async () => {
    const storage = new S3Storage({ ...options, prefix: 'paged' });
    try {
      const keys = Array.from({ length: 1010 }, (_, i) => `pages/${String(i).padStart(4, '0')}.webp`);
      for (let i = 0; i < keys.length; i += 50) {
        await Promise.all(keys.slice(i, i + 50).map((key) => storage.put(key, bytesOf('x'), 'image/webp')));
      }
      expect((await listed(storage, 'pages/')).map((f) => f.key)).toEqual(keys);
      await storage.delete(keys);
      expect(await listed(storage)).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});

describe('createMediaStorage', () => {
  it('makes the storage its options name', async () => {
    const folder = createMediaStorage({ kind: 'folder', dir: tempDir('folder') });
    const s3storage = createMediaStorage({ kind: 's3', ...s3Options });
    expect(folder).toBeInstanceOf(FolderStorage);
    expect(s3storage).toBeInstanceOf(S3Storage);
    await Promise.all([folder.close(), s3storage.close()]);
  });
});
