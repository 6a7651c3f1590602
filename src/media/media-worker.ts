// The media worker (runs in a worker thread of media-pool.ts): a fetched
// picture in, its master, renditions and facts out (processPicture); or one
// rendition made from a master on a client's first request (renderRendition).
// Decoding and encoding are sharp's (libvips, native code); the thread keeps
// the hashing, type detection and ThumbHash off the serving thread, and the
// pool's size bounds how many pictures are decoded at once.
import sharp from 'sharp';
import { heicToJpeg } from './heic.js';
import { processPicture, renderRendition } from './process.js';
import type { HeicResult, MediaFile, ProcessOptions, ProcessResult, RenditionFormat } from './types.js';

// These settings are libvips's, so the whole process's (every worker's):
// one libvips thread per picture — the pool's threads are the parallelism —
// and no cache of decoded pictures, each of which is seen once.
sharp.concurrency(1);
sharp.cache(false);
// Only the decoders of the accepted pictures (detect.ts names the type
// first; this holds even if libvips would read the bytes as something else):
// no SVG, PDF, TIFF or any other format's decoder runs in this process once a
// media worker has started — from memory or from a file. Encoders, and
// pixels made in memory, are not affected. (Unblocking a decoder's class
// unblocks its file, memory and stream variants.)
sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({
  operation: [
    'VipsForeignLoadJpeg',
    'VipsForeignLoadPng',
    'VipsForeignLoadNsgif', // libvips's GIF decoder (libnsgif)
    'VipsForeignLoadGif', // its name in libvips builds with giflib
    'VipsForeignLoadWebp',
    'VipsForeignLoadHeif', // AVIF
  ],
});

export interface ProcessTask {
  kind: 'process';
  /** the picture as fetched (transferred to the worker, not copied) */
  bytes: Uint8Array;
  options: ProcessOptions;
}

export interface RenderTask {
  kind: 'render';
  /** the picture's master (transferred to the worker, not copied) */
  master: Uint8Array;
  width: number;
  format: RenditionFormat;
  animated: boolean;
}

export interface HeicTask {
  kind: 'heic';
  /** an uploaded HEIC photo (transferred to the worker, not copied) */
  bytes: Uint8Array;
  maxPixels: number;
}

export type MediaTask = ProcessTask | RenderTask | HeicTask;

// One default export for every task: Piscina loads a worker module by its
// default export (from src/, through tsx's require hook).
export default function runMediaTask(task: MediaTask): Promise<ProcessResult | MediaFile | HeicResult> {
  if (task.kind === 'heic') return heicToJpeg(task.bytes, task.maxPixels);
  return task.kind === 'process'
    ? processPicture(task.bytes, task.options)
    : renderRendition(task.master, task.width, task.format, task.animated);
}
