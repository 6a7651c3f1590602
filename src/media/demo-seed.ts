// The demo data set's pictures through the media pipeline. `wallery start`
// loads posts whose pictures are the files of demo/media, addressed at the
// server's own /demo-media/ URLs — which the SSRF guard refuses to fetch
// (loopback), and which need no fetch: the files are read from the package
// (photographs as they are; SVG, which the pipeline never takes from
// upstream, drawn into PNG first: here they are Wallery's own, trusted
// files), processed by the same pool as fetched pictures and stored under
// their hash. The demo then shows Wallery's own copies, with their
// dimensions and placeholders.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { ChangeBus } from '../store/changes.js';
import { claimSource, completePictures, pendingSourcesUnder, settlePictures } from '../store/media-queue.js';
import type { Database } from '../store/schema.js';
import { writePicture } from './runtime.js';
import { DEFAULT_PROCESS_OPTIONS, type MediaServices, type ProcessOptions } from './types.js';

/** The demo's picture files: demo/media of the package (two levels up from src/media and dist/media alike). */
export const DEMO_MEDIA_FILES = fileURLToPath(new URL('../../demo/media/', import.meta.url));

const OWNER = 'demo-seed';
const FILE_NAME = /^[a-z0-9][a-z0-9-]*\.(svg|jpg|png|webp)$/;

export interface DemoMediaOptions {
  db: Kysely<Database>;
  services: MediaServices;
  /** where the demo's pictures are addressed (demoMediaBase: `http://localhost:3000/demo-media`) */
  base: string;
  /** the folder of their files (default DEMO_MEDIA_FILES) */
  dir?: string;
  now: number;
  changes?: ChangeBus;
  options?: ProcessOptions;
}

/**
 * Stores the demo's pending pictures from their files and marks them ready;
 * one whose file is missing or cannot be drawn is `skipped` (its post shows
 * the original URL). Returns how many source files were stored and skipped.
 *
 * Every file is drawn before the first is processed: once a media worker
 * thread has started, libvips's SVG decoder is blocked for the whole
 * process (media-worker.ts), so a seed in a process whose pool has already
 * worked skips the pictures rather than draw them.
 */
export async function seedDemoMedia(o: DemoMediaOptions): Promise<{ stored: number; skipped: number }> {
  const prefix = `${o.base}/`;
  const urls = await pendingSourcesUnder(o.db, prefix);
  const drawn = await Promise.all(
    urls.map(async (url) => {
      const name = url.slice(prefix.length);
      return { url, png: FILE_NAME.test(name) ? await readPicture(join(o.dir ?? DEMO_MEDIA_FILES, name)) : null };
    }),
  );
  const outcomes = await Promise.all(drawn.map(({ url, png }) => seedOne(o, url, png)));
  return {
    stored: outcomes.filter((s) => s === 'stored').length,
    skipped: outcomes.filter((s) => s === 'skipped').length,
  };
}

async function seedOne(o: DemoMediaOptions, url: string, png: Buffer | null): Promise<'stored' | 'skipped' | 'none'> {
  const claimed = await claimSource(o.db, url, OWNER, o.now, o.now + 600_000);
  if (claimed.length === 0) return 'none';
  const ids = claimed.map((p) => p.id);
  const result = png ? await o.services.processor.process(png, o.options ?? DEFAULT_PROCESS_OPTIONS) : null;
  let settled;
  if (result?.ok) {
    await writePicture(o.services.storage, result);
    settled = await completePictures(o.db, ids, OWNER, result, o.now);
  } else settled = await settlePictures(o.db, ids, OWNER, { state: 'skipped' }, o.now);
  for (const wallId of settled.touchedWalls) o.changes?.wallChanged(wallId);
  return result?.ok ? 'stored' : 'skipped';
}

/** A picture file of the package: a photograph as it is, an SVG drawn into a PNG of its own size; null when it cannot be read or drawn. */
async function readPicture(path: string): Promise<Buffer | null> {
  try {
    const bytes = await readFile(path);
    return path.endsWith('.svg') ? await sharp(bytes).png().toBuffer() : bytes;
  } catch {
    return null;
  }
}
