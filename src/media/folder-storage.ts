// Media kept in a folder of the server's disk: a key is a path under it
// (`ab/ab12…/640.webp`). The folder keeps no metadata: a file's content type
// is the one its name's extension stands for (names.ts), which is how every
// media file is named.
import { randomBytes } from 'node:crypto';
import { mkdir, opendir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { assertValidKey, contentTypeOf, formatOfName } from './names.js';
import type { MediaStorage, StoredObject } from './types.js';

const isCode = (err: unknown, ...codes: string[]) => codes.includes((err as { code?: string }).code ?? '');

export class FolderStorage implements MediaStorage {
  readonly kind = 'folder';
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  localPath(key: string): string {
    assertValidKey(key);
    return join(this.dir, ...key.split('/'));
  }

  /**
   * Atomic: the bytes are written to a temporary file beside the key's
   * (same folder, so the same file system) and renamed over it, which
   * replaces the name in one step — a reader opens the old file or the new
   * one, never a half-written one. The temporary name is a dot file, which
   * no key can be (names.ts), so list() never sees it. Not synced to disk:
   * after a crash a file may be lost, never torn, and it can be made again.
   */
  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    const path = this.localPath(key);
    const dir = dirname(path);
    const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
    await mkdir(dir, { recursive: true });
    try {
      await writeFile(temp, bytes, { flag: 'wx' });
    } catch (err) {
      // delete() took the folder away after it emptied it: make it again, once
      if (!isCode(err, 'ENOENT')) throw err;
      await mkdir(dir, { recursive: true });
      await writeFile(temp, bytes, { flag: 'wx' });
    }
    try {
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.localPath(key));
    } catch (err) {
      if (isCode(err, 'ENOENT', 'EISDIR', 'ENOTDIR')) return null;
      throw err;
    }
    const format = formatOfName(key);
    return {
      bytes,
      size: bytes.byteLength,
      contentType: format ? contentTypeOf(format) : 'application/octet-stream',
    };
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.localPath(key))).isFile();
    } catch (err) {
      if (isCode(err, 'ENOENT', 'ENOTDIR')) return false;
      throw err;
    }
  }

  /** Deletes the files, then the folders they leave empty (up to, not including, the storage's own). */
  async delete(keys: readonly string[]): Promise<void> {
    const paths = keys.map((key) => this.localPath(key));
    await Promise.all(paths.map((path) => rm(path, { force: true })));
    const folders = new Set(paths.map((path) => dirname(path)));
    for (const folder of [...folders].sort().reverse()) {
      for (let dir = folder; dir.startsWith(this.dir + sep); dir = dirname(dir)) {
        try {
          await rmdir(dir);
        } catch (err) {
          if (isCode(err, 'ENOTEMPTY', 'EEXIST', 'ENOENT')) break;
          throw err;
        }
      }
    }
  }

  /** Walks the folder from the deepest one the prefix names whole; a file's key is its path under the storage's folder. */
  async *list(prefix = ''): AsyncIterable<{ key: string; size: number }> {
    const start = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    if (start !== '') assertValidKey(start);
    yield* this.walk(start === '' ? this.dir : this.localPath(start), prefix);
  }

  private async *walk(dir: string, prefix: string): AsyncIterable<{ key: string; size: number }> {
    let entries;
    try {
      entries = await opendir(dir);
    } catch (err) {
      if (isCode(err, 'ENOENT', 'ENOTDIR')) return;
      throw err;
    }
    for await (const entry of entries) {
      if (entry.name.startsWith('.')) continue; // a put's temporary file
      const path = join(dir, entry.name);
      const key = relative(this.dir, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(path, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        try {
          yield { key, size: (await stat(path)).size };
        } catch (err) {
          if (!isCode(err, 'ENOENT')) throw err; // deleted while listed
        }
      }
    }
  }

  async close(): Promise<void> {}
}
