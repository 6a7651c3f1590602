// The media storage's part of `wallery backup` and `wallery restore`: the
// pictures' files, copied into a folder beside the backup file
// (`FILE.media/`, the same key layout as the media folder) and back. Keys are
// content-addressed — a key holds the same bytes wherever it is kept — so a
// file already at the destination (same key, same size) is not copied again:
// a nightly backup to the same FILE copies only the day's new pictures.
import type { MediaStorage } from './types.js';

/** Where a backup keeps the pictures: a folder beside its file. */
export const mediaBackupDir = (file: string): string => `${file}.media`;

export interface MediaCopy {
  /** files copied, and their bytes */
  files: number;
  bytes: number;
  /** files the destination held already */
  kept: number;
}

/** Copies every file of `from` that `to` does not hold yet. */
export async function copyMediaFiles(from: MediaStorage, to: MediaStorage): Promise<MediaCopy> {
  const there = new Map<string, number>();
  for await (const { key, size } of to.list()) there.set(key, size);
  const copy: MediaCopy = { files: 0, bytes: 0, kept: 0 };
  for await (const { key, size } of from.list()) {
    if (there.get(key) === size) {
      copy.kept++;
      continue;
    }
    const file = await from.get(key);
    if (!file) continue; // removed (gc) while listed
    await to.put(key, file.bytes, file.contentType);
    copy.files++;
    copy.bytes += file.size;
  }
  return copy;
}
